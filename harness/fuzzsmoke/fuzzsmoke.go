// Package fuzzsmoke holds no code: its test runs every fuzz target of the
// repository for a fixed number of executions, so that `go test ./...`
// alone is the whole suite (seed corpora run in each package's own tests;
// this adds a short run of new inputs). Budgets are execution counts, not
// durations: Go 1.26's fuzzer can fail a duration-bounded run with a
// spurious "context deadline exceeded" when its deadline races a busy
// worker (go.dev/issue/75804).
package fuzzsmoke
