"""plies engine core: game rules, search and knowledge. Imports nothing from protocols/ or adapters/."""
