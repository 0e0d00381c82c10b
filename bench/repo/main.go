// Command repo times udfx over a whole generated repository: the per-UDF
// loop a user has without folder runs (one `udfx rewrite FILE:NAME` call
// after another) against one `udfx rewrite DIR` call, sequential and in
// parallel. Each mode gets its own repository, generated with its own
// constants, so no mode finds another's compiled originals in udfx's
// caches. It prints a Markdown table (task bench-repo).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	sizes := flag.String("sizes", "60", "repository sizes in UDFs, comma-separated")
	udfx := flag.String("udfx", "", "the udfx binary (default: built from this checkout)")
	jobs := flag.Int("jobs", runtime.NumCPU(), "--jobs of the parallel folder run")
	keep := flag.Bool("keep", false, "keep the generated repositories")
	parts := flag.String("parts", "rewrite,verify", "what to time, comma-separated: rewrite (the loop against folder runs), verify (the gate incremental against --full)")
	flag.Parse()
	if err := run(*sizes, *udfx, *jobs, *keep, *parts); err != nil {
		fmt.Fprintln(os.Stderr, "bench-repo:", err)
		os.Exit(1)
	}
}

type mode struct {
	name string
	// folder: one udfx rewrite call with these extra flags; else the
	// per-UDF loop.
	folder bool
	flags  []string
	// again runs over the previous mode's repository, unchanged.
	again bool
}

func run(sizesFlag, udfx string, jobs int, keep bool, parts string) error {
	doRewrite, doVerify := false, false
	for _, p := range strings.Split(parts, ",") {
		switch strings.TrimSpace(p) {
		case "rewrite":
			doRewrite = true
		case "verify":
			doVerify = true
		default:
			return fmt.Errorf("-parts: unknown part %q: want rewrite or verify", p)
		}
	}
	var sizes []int
	for _, s := range strings.Split(sizesFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("-sizes: %q is not a positive number", s)
		}
		sizes = append(sizes, n)
	}
	tmp, err := os.MkdirTemp("", "udfx-bench-repo-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Fprintln(os.Stderr, "repositories in", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	if udfx == "" {
		udfx = filepath.Join(tmp, "udfx")
		if out, err := exec.Command("go", "build", "-o", udfx, "./cmd/udfx").CombinedOutput(); err != nil {
			return fmt.Errorf("build udfx: %v\n%s", err, out)
		}
	}
	// Seeds never used before: udfx caches compiled originals by their
	// source, and a mode must not find those of an earlier run.
	seed := uint64(time.Now().UnixNano())
	if doRewrite {
		if err := benchRewrite(tmp, udfx, sizes, jobs, &seed); err != nil {
			return err
		}
	}
	if doVerify {
		return benchVerify(tmp, udfx, sizes, jobs, &seed)
	}
	return nil
}

// benchRewrite times the per-UDF loop against folder runs.
func benchRewrite(tmp, udfx string, sizes []int, jobs int, seed *uint64) error {
	modes := []mode{
		{name: "per-UDF loop (udfx rewrite FILE:NAME each)"},
		{name: "udfx rewrite DIR --jobs 1", folder: true, flags: []string{"--jobs", "1"}},
		{name: fmt.Sprintf("udfx rewrite DIR --jobs %d", jobs), folder: true, flags: []string{"--jobs", strconv.Itoa(jobs)}},
		{name: fmt.Sprintf("the same again, unchanged (proofs from the cache), --jobs %d", jobs), folder: true, flags: []string{"--jobs", strconv.Itoa(jobs)}, again: true},
	}
	fmt.Printf("udfx over a generated repository (%d CPUs; embedded engine; each mode but the last cold: its own repository, its own constants; one run each)\n\n", runtime.NumCPU())
	fmt.Println("| UDFs | mode | wall | per UDF | vs loop | verified / declined / error |")
	fmt.Println("|---:|---|---:|---:|---:|---|")
	for _, n := range sizes {
		var loop float64
		var dir string
		for _, m := range modes {
			if !m.again {
				dir = filepath.Join(tmp, fmt.Sprintf("repo-%d-%d", n, *seed))
				if err := generate(dir, n, *seed); err != nil {
					return err
				}
				*seed++
			}
			wall, counts, err := timeMode(udfx, dir, m)
			if err != nil {
				return fmt.Errorf("%d UDFs, %s: %w", n, m.name, err)
			}
			if !m.folder {
				loop = wall
			}
			fmt.Printf("| %d | %s | %.1f s | %.2f s | %.2f× | %s |\n", n, m.name, wall, wall/float64(n), loop/wall, counts)
		}
	}
	return nil
}

// timeMode runs one mode over dir and returns its wall time and the
// outcome counts.
func timeMode(udfx, dir string, m mode) (float64, string, error) {
	ctx := context.Background()
	if m.folder {
		args := append([]string{"rewrite", ".", "--format", "json"}, m.flags...)
		start := time.Now()
		out, err := command(ctx, udfx, dir, args...)
		wall := time.Since(start).Seconds()
		if err != nil && !isExit(err, 1) {
			return 0, "", err
		}
		var doc struct {
			Counts map[string]int `json:"counts"`
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			return 0, "", fmt.Errorf("summary: %w", err)
		}
		return wall, fmt.Sprintf("%d / %d / %d", doc.Counts["verified"], doc.Counts["declined"]+doc.Counts["refuted"], doc.Counts["error"]), nil
	}
	out, err := command(ctx, udfx, dir, "scan", ".", "--format", "json")
	if err != nil {
		return 0, "", err
	}
	var found struct {
		UDFs []struct{ Name, File string } `json:"udfs"`
	}
	if err := json.Unmarshal(out, &found); err != nil {
		return 0, "", fmt.Errorf("scan: %w", err)
	}
	verified, failed, errored := 0, 0, 0
	start := time.Now()
	for _, u := range found.UDFs {
		_, err := command(ctx, udfx, dir, "rewrite", u.File+":"+u.Name)
		switch {
		case err == nil:
			verified++
		case isExit(err, 1):
			failed++
		case isExit(err, 2) || isExit(err, 3):
			errored++
		default:
			return 0, "", err
		}
	}
	return time.Since(start).Seconds(), fmt.Sprintf("%d / %d / %d", verified, failed, errored), nil
}

func command(ctx context.Context, name, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && !isExitErr(err) {
		return out, fmt.Errorf("%s %v: %w: %s", name, args, err, stderr.String())
	}
	return out, err
}

func isExitErr(err error) bool {
	_, ok := err.(*exec.ExitError)
	return ok
}

func isExit(err error, code int) bool {
	ee, ok := err.(*exec.ExitError)
	return ok && ee.ExitCode() == code
}

// generate writes a git repository of n UDFs in the shapes of the
// examples: 60% Python (five to a module), 25% Scala and 15% Java (one
// class to a file); most are arithmetic udfx proves, every seventh
// Python one calls a str method it declines, and every fourth Python
// module imports a package that is not installed.
func generate(dir string, n int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 7))
	files := map[string]*strings.Builder{}
	add := func(path, text string) {
		b, ok := files[path]
		if !ok {
			b = &strings.Builder{}
			files[path] = b
		}
		b.WriteString(text)
	}
	python := 0 // Python UDFs so far: five to a module
	for i := range n {
		k, c := 1+rng.IntN(97), rng.IntN(1000)
		switch r := i % 20; {
		case r < 12:
			m := python / 5
			python++
			mod := fmt.Sprintf("jobs/module_%03d.py", m)
			if _, ok := files[mod]; !ok {
				head := "from pyspark.sql.functions import udf\nfrom pyspark.sql.types import DoubleType, LongType, StringType\n"
				if m%4 == 3 {
					head = "import boto3\n" + head
				}
				add(mod, head)
			}
			switch {
			case i%7 == 3:
				add(mod, fmt.Sprintf("\n\n@udf(returnType=StringType())\ndef label_%d(s: str) -> str:\n    if s is None:\n        return None\n    return s.swapcase() + %q\n", i, fmt.Sprint(c)))
			case i%2 == 0:
				add(mod, fmt.Sprintf("\n\n@udf(returnType=DoubleType())\ndef scale_%d(x: float) -> float:\n    if x is None:\n        return None\n    return x * %d.0 + %d.5\n", i, k, c))
			default:
				add(mod, fmt.Sprintf("\n\n@udf(returnType=LongType())\ndef shift_%d(n: int) -> int:\n    if n is None:\n        return None\n    return n // %d + %d\n", i, k, c))
			}
		case r < 17:
			add(fmt.Sprintf("src/main/scala/jobs/Scale%d.scala", i), fmt.Sprintf(`package jobs

class Scale%d extends Function1[java.lang.Double, java.lang.Double] with Serializable {
  override def apply(x: java.lang.Double): java.lang.Double = {
    if (x == null) null
    else x * %d.0 + %d.0
  }
}
`, i, k, c))
		default:
			add(fmt.Sprintf("src/main/java/jobs/Offset%d.java", i), fmt.Sprintf(`package jobs;

import org.apache.spark.sql.api.java.UDF1;

public class Offset%d implements UDF1<Double, Double> {
  @Override
  public Double call(Double x) {
    if (x == null) {
      return null;
    }
    return x * %d.0 - %d.0;
  }
}
`, i, k, c))
		}
	}
	for path, b := range files {
		full := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}
	return gitCommit(dir, "generated")
}

// benchVerify times the gate over a repository whose verified rewrites
// were applied: every record re-run (--full), then the same unchanged
// (incremental: re-runs from the proof cache), then after one Python
// module changed (its language's records re-run, the others from the
// cache). The cache is a folder of this run's own.
func benchVerify(tmp, udfx string, sizes []int, jobs int, seed *uint64) error {
	ctx := context.Background()
	fmt.Printf("\nudfx verify over the applied rewrites (%d CPUs; --jobs %d; one run each, in this order)\n\n", runtime.NumCPU(), jobs)
	fmt.Println("| records | mode | wall | per record | vs --full | re-run / from cache | pass / fail / error |")
	fmt.Println("|---:|---|---:|---:|---:|---|---|")
	for _, n := range sizes {
		dir := filepath.Join(tmp, fmt.Sprintf("verify-%d-%d", n, *seed))
		if err := generate(dir, n, *seed); err != nil {
			return err
		}
		*seed++
		start := time.Now()
		if _, err := command(ctx, udfx, dir, "rewrite", ".", "--apply", "--jobs", strconv.Itoa(jobs), "--format", "json"); err != nil && !isExit(err, 1) {
			return fmt.Errorf("%d UDFs: rewrite --apply: %w", n, err)
		}
		fmt.Fprintf(os.Stderr, "bench-repo: %d UDFs applied in %.1f s\n", n, time.Since(start).Seconds())
		if err := gitCommit(dir, "applied"); err != nil {
			return err
		}
		cache := filepath.Join(tmp, fmt.Sprintf("verify-cache-%d", n))
		var full float64
		for _, m := range []struct {
			name  string
			flags []string
			edit  bool
		}{
			{name: "udfx verify --full (every record re-run)", flags: []string{"--full"}},
			{name: "udfx verify, unchanged (incremental)"},
			{name: "udfx verify after one Python module changed", edit: true},
		} {
			if m.edit {
				mods, _ := filepath.Glob(filepath.Join(dir, "jobs", "*.py"))
				if len(mods) == 0 {
					return fmt.Errorf("%d UDFs: no Python module to change", n)
				}
				f, err := os.OpenFile(mods[0], os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					return err
				}
				_, err = f.WriteString("\n# reviewed\n")
				if cerr := f.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					return err
				}
			}
			args := append([]string{"verify", "--format", "json", "--jobs", strconv.Itoa(jobs), "--cache-dir", cache}, m.flags...)
			start := time.Now()
			out, err := command(ctx, udfx, dir, args...)
			wall := time.Since(start).Seconds()
			if err != nil && !isExit(err, 1) && !isExit(err, 3) {
				return fmt.Errorf("%d UDFs, %s: %w", n, m.name, err)
			}
			var doc struct {
				Records   int            `json:"records"`
				Reran     int            `json:"reran"`
				FromCache int            `json:"from_cache"`
				Counts    map[string]int `json:"counts"`
			}
			if err := json.Unmarshal(out, &doc); err != nil {
				return fmt.Errorf("%d UDFs, %s: %w", n, m.name, err)
			}
			if full == 0 {
				full = wall
			}
			failing := 0
			for st, c := range doc.Counts {
				if st != "pass" && st != "error" {
					failing += c
				}
			}
			fmt.Printf("| %d | %s | %.1f s | %.2f s | %.2f× | %d / %d | %d / %d / %d |\n", doc.Records, m.name, wall, wall/float64(max(doc.Records, 1)), full/wall,
				doc.Reran, doc.FromCache, doc.Counts["pass"], failing, doc.Counts["error"])
		}
	}
	return nil
}

func gitCommit(dir, msg string) error {
	for _, args := range [][]string{{"add", "-A"}, {"-c", "user.email=bench@example.com", "-c", "user.name=bench", "commit", "-qm", msg}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v: %s", args, err, out)
		}
	}
	return nil
}
