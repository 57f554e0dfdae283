"""Wire formats only: parse and format harness messages.  Never imports engines/."""
