package engine

// Kernels names the kernels this binary runs on this CPU: the join's
// matching ("avx512", "avx2" or "go") and the backtracking searches'
// ("bmi2" assembly or "go"), for reports such as nqueens bench's.
func Kernels() (join, backtracking string) { return joinKernel(), searchKernel() }
