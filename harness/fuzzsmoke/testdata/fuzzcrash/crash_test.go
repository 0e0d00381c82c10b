// Package fuzzcrash is TestACrashFailsTheRun's fuzz target: it crashes on
// any input longer than its seed, which the fuzzer finds at once.
package fuzzcrash

import "testing"

func FuzzCrash(f *testing.F) {
	f.Add("ok")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 3 {
			panic("crashed on a long input")
		}
	})
}
