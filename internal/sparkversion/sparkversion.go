// Package sparkversion reads, as data, which Apache Spark version a
// repository declares in its build and dependency files.
//
// It exists because a rewrite udfx proves equivalent under one Spark
// version can be wrong under another: Spark 4 turns ANSI mode on by
// default, Spark 3.5 does not, so casts, overflow and division behave
// differently. udfx must know which Spark the repository targets before it
// trusts a proof, and it must learn that without running the project's
// build (a build file is code: running pip, sbt, Gradle or Maven would
// execute whatever the repository says).
//
// The readers are deliberately strict. A declaration is reported only when
// the file pins a single major.minor line of Spark; anything the readers
// cannot read with certainty (a range spanning minors, a version computed
// at build time, a value defined in another file) yields no declaration
// rather than a guess, because a wrong version would let udfx accept a
// rewrite that is wrong on the cluster that runs it.
package sparkversion

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Declared is one declaration of the Spark version in a repository's files.
type Declared struct {
	Version string // major.minor, e.g. "3.5"
	Full    string // as written when exact, e.g. "3.5.1"; "" for a range
	File    string // slash-separated, relative to the root
	Line    int    // 1-based
	Text    string // the declaration as written, trimmed, e.g. `pyspark==3.5.1`
	// ANSI is the jobs' spark.sql.ansi.enabled where the declaration
	// states it (udfx.yaml's spark: ansi:), on ANSILine as ANSIText.
	ANSI     *bool
	ANSILine int
	ANSIText string
}

// DeclaredANSI is the ANSI mode decls state, and where ("udfx.yaml:3:
// spark: ansi: false"); nil when none states one, and the version's
// default applies. Only the repository root's udfx.yaml states a mode:
// it is the file reviewers own (harness/config), where a udfx.yaml a pull
// request adds beside its code would go unnoticed.
func DeclaredANSI(decls []Declared) (on *bool, from string) {
	for _, d := range decls {
		if d.ANSI != nil && d.File == "udfx.yaml" {
			return d.ANSI, fmt.Sprintf("%s:%d: %s", d.File, d.ANSILine, d.ANSIText)
		}
	}
	return nil, ""
}

func (d Declared) String() string {
	return fmt.Sprintf("%s:%d: %s (Spark %s)", d.File, d.Line, d.Text, d.Version)
}

// ConflictError says two declarations name different major.minor
// versions: udfx cannot tell which Spark runs the code, so it must not
// pick one.
type ConflictError struct{ A, B Declared }

func (e *ConflictError) Error() string {
	return fmt.Sprintf("conflicting Spark versions: %s:%d %q declares %s, %s:%d %q declares %s",
		e.A.File, e.A.Line, e.A.Text, e.A.Version,
		e.B.File, e.B.Line, e.B.Text, e.B.Version)
}

// skipDirs are never the project's own declarations: they hold installed
// third-party packages, build outputs or udfx's own state, whose
// requirements and poms name whatever Spark their authors used.
var skipDirs = map[string]bool{
	".git": true, ".udfx": true, "node_modules": true, "vendor": true,
	".venv": true, "venv": true, "site-packages": true, "target": true,
	"build": true, "__pycache__": true,
}

// parser reads one file's bytes; rel is only used to fill Declared.File.
type parser func(rel string, data []byte) []Declared

// parserFor picks the reader for a file by its name, or nil when the file
// is not one udfx reads.
func parserFor(rel string) parser {
	base := path.Base(rel)
	dir := path.Base(path.Dir(rel))
	lower := strings.ToLower(base)
	switch {
	case base == "pyproject.toml":
		return ParsePyproject
	case base == "Pipfile":
		return ParsePipfile
	case base == "setup.py":
		return ParseSetupPy
	case base == "setup.cfg":
		return ParseSetupCfg
	case base == "pom.xml":
		return ParsePom
	case base == "udfx.yaml":
		// udfx's own config states the Spark for a repository whose
		// files pin none (a cluster image, a Databricks runtime).
		return ParseUdfxYAML
	case strings.HasSuffix(base, ".sbt"):
		return ParseSbt
	case dir == "project" && strings.HasSuffix(base, ".scala"):
		return ParseSbt
	case strings.HasSuffix(base, ".gradle") || strings.HasSuffix(base, ".gradle.kts"):
		return ParseGradle
	case strings.HasPrefix(lower, "environment") && (strings.HasSuffix(lower, ".yml") || strings.HasSuffix(lower, ".yaml")):
		return ParseCondaEnv
	case (strings.HasPrefix(lower, "requirements") || strings.HasPrefix(lower, "constraints")) &&
		(strings.HasSuffix(lower, ".txt") || strings.HasSuffix(lower, ".in")):
		return ParseRequirements
	case dir == "requirements" && (strings.HasSuffix(lower, ".txt") || strings.HasSuffix(lower, ".in")):
		// requirements/base.txt, requirements/dev.txt: a common split of
		// one requirements file into several.
		return ParseRequirements
	}
	return nil
}

// Detect walks root (skipping .git, .udfx, node_modules, vendor, .venv,
// venv, site-packages, target, build, __pycache__) and returns every
// declaration, sorted by File then Line. An unreadable file is an error
// naming it.
func Detect(root string) ([]Declared, error) {
	var out []Declared
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("sparkversion: reading %s: %w", p, err)
		}
		if d.IsDir() {
			if p != root && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return fmt.Errorf("sparkversion: %s: %w", p, err)
		}
		rel = filepath.ToSlash(rel)
		parse := parserFor(rel)
		if parse == nil {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("sparkversion: reading %s: %w", rel, err)
		}
		out = append(out, parse(rel, data)...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sortDecls(out)
	return out, nil
}

func sortDecls(ds []Declared) {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].File != ds[j].File {
			return ds[i].File < ds[j].File
		}
		return ds[i].Line < ds[j].Line
	})
}

// Resolve is the one major.minor the declarations agree on: ok false when
// there are none; a *ConflictError naming two that disagree (file:line and
// text of each) otherwise.
func Resolve(decls []Declared) (d Declared, ok bool, err error) {
	if len(decls) == 0 {
		return Declared{}, false, nil
	}
	first := decls[0]
	for _, o := range decls[1:] {
		if o.Version != first.Version {
			return Declared{}, false, &ConflictError{A: first, B: o}
		}
	}
	return first, true, nil
}

// IsConflict reports whether err is a *ConflictError.
func IsConflict(err error) bool {
	var c *ConflictError
	return errors.As(err, &c)
}

// majorMinor formats the first two release numbers of rel. Versions with
// fewer than two numbers (`4`) are refused: they name no minor.
func majorMinor(rel []int) (string, bool) {
	if len(rel) < 2 {
		return "", false
	}
	return strconv.Itoa(rel[0]) + "." + strconv.Itoa(rel[1]), true
}

// parseRelease reads dot-separated non-negative integers; it refuses
// anything else so that build-time placeholders and expressions never
// count as versions.
func parseRelease(s string) ([]int, bool) {
	if s == "" {
		return nil, false
	}
	parts := strings.Split(s, ".")
	if len(parts) > 8 {
		return nil, false
	}
	rel := make([]int, 0, len(parts))
	for _, p := range parts {
		if p == "" || len(p) > 9 {
			return nil, false
		}
		for _, c := range p {
			if c < '0' || c > '9' {
				return nil, false
			}
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, false
		}
		rel = append(rel, n)
	}
	return rel, true
}

// jvmVersion is what Maven, sbt and Gradle users write for a Spark
// artifact: 3.5.1, 4.0.0-preview2, 3.5.1-SNAPSHOT, vendor builds such as
// 3.3.2-amzn-0 or 3.1.1.3.1.7270.0-253. The first two numbers are the
// Apache major.minor in every case.
var jvmVersion = regexp.MustCompile(`^(\d{1,9})\.(\d{1,9})(?:\.\d{1,9})?(?:[.-][0-9A-Za-z][0-9A-Za-z.+_-]*)?$`)

// jvmDecl builds a declaration from an exact JVM version, or false.
func jvmDecl(ver, rel string, line int, text string) (Declared, bool) {
	m := jvmVersion.FindStringSubmatch(ver)
	if m == nil {
		return Declared{}, false
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	return Declared{
		Version: strconv.Itoa(a) + "." + strconv.Itoa(b),
		Full:    ver,
		File:    rel,
		Line:    line,
		Text:    strings.TrimSpace(text),
	}, true
}

// lineIndex maps byte offsets to 1-based lines.
type lineIndex []int

func newLineIndex(data []byte) lineIndex {
	li := lineIndex{0}
	for i, c := range data {
		if c == '\n' {
			li = append(li, i+1)
		}
	}
	return li
}

func (li lineIndex) line(off int) int {
	return sort.Search(len(li), func(i int) bool { return li[i] > off })
}

// dedupe drops repeats of one declaration: several Spark artifacts sharing
// one version variable all point at the variable's line.
func dedupe(ds []Declared) []Declared {
	seen := map[[2]string]bool{}
	out := ds[:0]
	for _, d := range ds {
		k := [2]string{strconv.Itoa(d.Line), d.Text}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, d)
	}
	return out
}
