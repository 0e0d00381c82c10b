// Package parsebench times a front-end on generated files of growing size,
// so each language's benchmark shows whether the time per byte stays flat
// (issue: a quadratic front-end took 47 s and 12.8 GB on 400 KB).
package parsebench

import (
	"fmt"
	"testing"

	"github.com/udfx/udfx/harness/udf"
)

// Sizes are the generated files' sizes: 100 KB, 1 MB and 4 MB (the scan's
// cap).
var Sizes = []int{100 << 10, 1 << 20, 4 << 20}

// Run parses gen(size) for each of Sizes with a fresh front-end from
// newFrontend, reporting bytes per second and allocations; a parse that
// fails or finds no UDF fails the benchmark.
func Run(b *testing.B, newFrontend func() udf.Frontend, file string, gen func(size int) []byte) {
	for _, size := range Sizes {
		src := gen(size)
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			fe := newFrontend()
			defer fe.Close()
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				us, err := fe.Parse(file, src)
				if err != nil {
					b.Fatal(err)
				}
				if len(us) == 0 {
					b.Fatal("no UDFs found")
				}
			}
		})
	}
}
