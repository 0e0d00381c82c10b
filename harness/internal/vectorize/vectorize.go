// Package vectorize renders the vectorized-python target: a Python UDF's
// per-row loops as a numba kernel (@numba.njit(cache=True), no fastmath)
// called from a pandas_udf of the original's return type, or a decline
// that says what could not be rendered exactly.
//
// The rendering reads the UDF with Python's own ast module (render.py,
// embedded, run in the interpreter that runs the UDF), types every local
// as CPython with numpy 2 would (a Python float that is given a float32
// becomes a float32, NEP 50), and keeps the statements and their order.
// What the kernel would compute differently from CPython it leaves to the
// original: a zero divisor, an index out of range, an int past 64 bits
// raise in the kernel, and the pandas_udf then calls the original's
// per-row function, copied into the rewrite unchanged, for that row. The
// differential test proves the result bit-exact.
package vectorize

import (
	"context"
	_ "embed"

	"github.com/udfx/udfx/harness/internal/pyscript"
)

//go:embed render.py
var renderSource string

// Request names the UDF to render.
type Request struct {
	// File is the UDF's source file, absolute; RelFile the same file as
	// the rewrite's docstring names it.
	File    string `json:"file"`
	RelFile string `json:"rel_file"`
	Name    string `json:"name"`
	// Kind and Flavor are the front-end's (pandas-udf, series-to-series).
	Kind   string `json:"kind"`
	Flavor string `json:"flavor"`
	// ReturnType and ParamTypes are Spark types in their simple form
	// ("float", "array<float>").
	ReturnType string   `json:"return_type"`
	ParamTypes []string `json:"param_types"`
	// Marker is the rewrite file's first line (evidence.MarkerLine).
	Marker string `json:"marker"`
	// Fast asks for the fast form: a kernel with a faster algorithm that
	// rounds differently, tried first on the rows in its range, beside
	// the exact kernel. It is declined for a function of no known shape.
	Fast bool `json:"fast,omitempty"`
}

// DeclineError says what in the UDF cannot be rendered exactly.
type DeclineError struct{ Reason string }

func (e *DeclineError) Error() string { return "declined: " + e.Reason }

// Render runs the renderer in python and returns the rewrite's source.
func Render(ctx context.Context, python string, req Request) ([]byte, error) {
	var res struct {
		Source  *string `json:"source"`
		Decline string  `json:"decline"`
	}
	if err := pyscript.Run(ctx, python, "vectorize: the renderer", renderSource, req, &res); err != nil {
		return nil, err
	}
	if res.Source == nil {
		return nil, &DeclineError{Reason: res.Decline}
	}
	return []byte(*res.Source), nil
}
