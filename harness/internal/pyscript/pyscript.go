// Package pyscript runs one of udfx's embedded Python scripts (the numba
// renderer, the RDD chain translator) in the interpreter that runs the
// user's code: a JSON request on stdin, a JSON answer on stdout.
package pyscript

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
)

// Run runs source in python in isolated mode (-I: no user site, no
// PYTHON* variables, the script's folder not on the path), sends req and
// decodes the answer into res. what names the script in errors.
func Run(ctx context.Context, python, what, source string, req, res any) error {
	in, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	cmd := exec.CommandContext(ctx, python, "-I", "-c", source)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%s failed in %s: %w: %s", what, python, err, strings.TrimSpace(stderr.String()))
	}
	if err := json.Unmarshal(out, res); err != nil {
		return fmt.Errorf("%s: the answer is not JSON: %w: %q", what, err, out)
	}
	return nil
}
