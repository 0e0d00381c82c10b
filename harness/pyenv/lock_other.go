//go:build !unix

package pyenv

import "context"

// lockFile is a no-op where flock does not exist: two first runs at once
// may then both build the environment.
func lockFile(ctx context.Context, path string, waiting func()) (func(), error) {
	return func() {}, nil
}
