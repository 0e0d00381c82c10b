package engine

import "fmt"

// SyntaxError is an expression that does not parse. Pos is the byte offset
// in the expression where parsing stopped.
type SyntaxError struct {
	Pos int
	Msg string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("syntax error at offset %d: %s", e.Pos, e.Msg)
}

// UnsupportedFunctionError names a function (or expression form) that the
// embedded engine does not implement. The Spark engine must be used for it:
// guessing its semantics could return a silently different answer.
type UnsupportedFunctionError struct {
	Name string
	// Approx is set for the transcendental functions, which the engine
	// evaluates within 1 ulp of the JVM when Options.ApproxMath admits them.
	Approx bool
}

func (e *UnsupportedFunctionError) Error() string {
	if e.Approx {
		return fmt.Sprintf("function %s: the JVM's result can differ from Go's in the last bit, so the embedded engine evaluates it only when a tolerance of 2 ulps or more is accepted; use --engine spark for an exact check", e.Name)
	}
	return fmt.Sprintf("function %s is not supported by the embedded engine; use --engine spark", e.Name)
}

// UnsupportedRegexError is a Java regular expression that Go's RE2 engine
// cannot match exactly as java.util.regex does. Construct names the
// offending feature (for example "backreference" or "lookahead").
type UnsupportedRegexError struct {
	Pattern   string
	Construct string
}

func (e *UnsupportedRegexError) Error() string {
	return fmt.Sprintf("regular expression %q uses %s, which the embedded engine cannot match like Java; use --engine spark", e.Pattern, e.Construct)
}

// TypeError is an analysis error, like Spark's DATATYPE_MISMATCH or
// UNRESOLVED_COLUMN: the expression parses but cannot be typed.
type TypeError struct {
	Condition string // Spark's error class, e.g. "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES"
	Msg       string
}

func (e *TypeError) Error() string {
	if e.Condition == "" {
		return "type error: " + e.Msg
	}
	return fmt.Sprintf("type error [%s]: %s", e.Condition, e.Msg)
}

func typeErrf(cond, format string, args ...any) error {
	return &TypeError{Condition: cond, Msg: fmt.Sprintf(format, args...)}
}

// RowError is an error Spark raises while evaluating one row.
type RowError struct {
	Row       int
	Class     string // Java exception class, e.g. "org.apache.spark.SparkArithmeticException"
	Condition string // Spark error class, e.g. "DIVIDE_BY_ZERO"
	Message   string
}

func (e *RowError) Error() string {
	return fmt.Sprintf("row %d: %s [%s] %s", e.Row, e.Class, e.Condition, e.Message)
}

// Exception classes Spark uses for the runtime errors the engine raises.
const (
	classArithmetic   = "org.apache.spark.SparkArithmeticException"
	classNumberFormat = "org.apache.spark.SparkNumberFormatException"
	classDateTime     = "org.apache.spark.SparkDateTimeException"
	classIndexOOB     = "org.apache.spark.SparkArrayIndexOutOfBoundsException"
	classRuntime      = "org.apache.spark.SparkRuntimeException"
	classIllegalArg   = "org.apache.spark.SparkIllegalArgumentException"
)

// rowErr builds a row error; Row is filled in when the result is assembled.
func rowErr(class, cond, format string, args ...any) *RowError {
	return &RowError{Class: class, Condition: cond, Message: fmt.Sprintf(format, args...)}
}
