// Package buildcache keeps the output of deterministic builds (compiled
// classes) in folders named by a key that hashes everything the output
// depends on, so that the same inputs are built once per machine.
package buildcache

import (
	"fmt"
	"os"
	"path/filepath"
)

// complete marks a folder whose build finished.
const complete = ".complete"

// Dir returns dir/key when a complete build is there, or runs build into
// a fresh folder in dir and moves it into place. A failed build leaves
// nothing behind, so it runs again next time. A concurrent process doing
// the same is harmless: the first rename wins and the other's output is
// dropped.
func Dir(dir, key string, build func(out string) error) (path string, hit bool, err error) {
	final := filepath.Join(dir, key)
	if _, err := os.Stat(filepath.Join(final, complete)); err == nil {
		return final, true, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, fmt.Errorf("creating the build cache %s: %w", dir, err)
	}
	tmp, err := os.MkdirTemp(dir, ".build-")
	if err != nil {
		return "", false, fmt.Errorf("creating a build folder in %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp)
	if err := build(tmp); err != nil {
		return "", false, err
	}
	if err := os.WriteFile(filepath.Join(tmp, complete), nil, 0o644); err != nil {
		return "", false, fmt.Errorf("marking %s complete: %w", tmp, err)
	}
	if err := os.Rename(tmp, final); err != nil {
		if _, statErr := os.Stat(filepath.Join(final, complete)); statErr == nil {
			return final, false, nil
		}
		// A stale, incomplete folder from a killed build: replace it.
		if rmErr := os.RemoveAll(final); rmErr != nil {
			return "", false, fmt.Errorf("replacing %s: %w", final, rmErr)
		}
		if err := os.Rename(tmp, final); err != nil {
			return "", false, fmt.Errorf("moving the build to %s: %w", final, err)
		}
	}
	return final, false, nil
}
