// Command udfx finds Spark UDFs in Scala, Java and Python code and
// rewrites them into forms accelerated engines run natively.
package main

import (
	"os"

	"golang.org/x/term"
)

func main() {
	wd, err := os.Getwd()
	if err != nil {
		wd = "."
	}
	os.Exit(run(os.Args[1:], &env{
		Stdin:     os.Stdin,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
		WorkDir:   wd,
		StdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		StderrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		Getenv:    os.Getenv,
	}))
}
