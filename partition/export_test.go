package partition

// The errors the planner wraps, for the tests.
var (
	ErrMethod   = errMethod
	ErrTooLarge = errTooLarge
)
