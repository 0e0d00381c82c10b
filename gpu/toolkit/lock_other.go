//go:build !unix

package toolkit

import "context"

// lockFile is a no-op where flock does not exist.
func lockFile(ctx context.Context, path string, waiting func()) (func(), error) {
	return func() {}, nil
}
