//go:build linux

package verify

import (
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUnreadableFolderIsAnError: a folder the gate cannot look into may
// hold records and rewrites, so it is an error naming it, never a pass
// with those records left out. The folder here is one whose path is
// longer than the system takes (ENAMETOOLONG): permissions would not stop
// root, who runs CI.
func TestUnreadableFolderIsAnError(t *testing.T) {
	r := newRepo(t)
	fd, err := syscall.Open(r.dir, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	require.NoError(t, err)
	name := strings.Repeat("d", 250)
	depth := 0
	for ; depth < 20; depth++ {
		require.NoError(t, syscall.Mkdirat(fd, name, 0o755))
		next, err := syscall.Openat(fd, name, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
		require.NoError(t, err)
		syscall.Close(fd)
		fd = next
	}
	syscall.Close(fd)
	res := r.verify(t, true)
	require.Len(t, res.Items, 2, "%+v", res.Items)
	var it Item
	for _, i := range res.Items {
		if i.Status != Pass {
			it = i
		}
	}
	assert.Equal(t, Error, it.Status)
	assert.Regexp(t, `^the folder d+(/d+)* cannot be read \(file name too long\), so no record or rewrite in it was checked$`, it.Detail)
	assert.False(t, res.Passed())
	assert.True(t, res.HasErrors())
}
