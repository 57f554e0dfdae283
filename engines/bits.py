"""Bit intrinsics for bitboards: LLVM's ctpop/cttz, which compile to single instructions."""
from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64."""
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, [args[0]])
    return types.uint64(types.uint64), codegen


@intrinsic
def lowest_bit_index(typingctx, x):
    """Index of the lowest set bit of a nonzero uint64."""
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 1)])
    return types.uint64(types.uint64), codegen


@intrinsic
def highest_bit_index(typingctx, x):
    """Index of the highest set bit of a nonzero uint64."""
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctlz", [ir.IntType(64), ir.IntType(1)])
        lz = builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 1)])
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)
    return types.uint64(types.uint64), codegen
