package buildpath

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsscala "github.com/tree-sitter/tree-sitter-scala/bindings/go"

	"github.com/udfx/udfx/internal/regular"
)

// sparkScalaBinary is the Scala binary version of the Spark udfx runs
// originals on (4.1.1): a build for another cannot link against it.
const sparkScalaBinary = "2.13"

var scalaLanguage = sitter.NewLanguage(tsscala.Language())

// sbtProject is one project of an sbt build, as udfx reads build.sbt.
type sbtProject struct {
	name string
	// dir is the project's base folder, absolute.
	dir       string
	deps      []sbtDep
	dependsOn []string
}

// sbtDep is one libraryDependencies entry, with its line for messages.
type sbtDep struct {
	dependency
	cross bool // %%: the artifact takes the Scala binary suffix
	line  int
}

// sbtBuild is what udfx reads of build.sbt: the projects by name ("" is
// the root project, whose settings are the file's top level) and the
// Scala version the build sets.
type sbtBuild struct {
	path         string
	projects     map[string]*sbtProject
	scalaVersion string
	// problems are forms udfx cannot read, by project: an error once a
	// UDF needs that project.
	problems map[string][]string
}

// readSbt reads an sbt build definition as data: vals holding strings,
// scalaVersion, libraryDependencies (+= and ++= Seq(...), at the top
// level or in a project's .settings(...)), projects ((project in
// file("d")), project.in(file("d")), project) and their dependsOn. It
// never runs the build: its Scala is code a pull request controls.
func readSbt(path string) (*sbtBuild, error) {
	src, err := regular.ReadFile(path, 1<<20)
	if err != nil {
		return nil, err
	}
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(scalaLanguage); err != nil {
		return nil, err
	}
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, fmt.Errorf("cannot parse %s", path)
	}
	defer tree.Close()
	b := &sbtBuild{path: path, projects: map[string]*sbtProject{}, problems: map[string][]string{}}
	r := &sbtReader{src: src, b: b, vals: map[string]string{}}
	root := &sbtProject{dir: filepath.Dir(path)}
	b.projects[""] = root
	top := tree.RootNode()
	// Strings first: a val may be used above the line that sets it.
	for i := uint(0); i < top.NamedChildCount(); i++ {
		n := top.NamedChild(i)
		if n.Kind() == "val_definition" {
			if name, v := n.ChildByFieldName("pattern"), n.ChildByFieldName("value"); name != nil && v != nil && v.Kind() == "string" {
				r.vals[r.text(name)] = unquote(r.text(v))
			}
		}
	}
	for i := uint(0); i < top.NamedChildCount(); i++ {
		n := top.NamedChild(i)
		switch n.Kind() {
		case "val_definition":
			name, v := n.ChildByFieldName("pattern"), n.ChildByFieldName("value")
			if name != nil && v != nil && r.isProject(v) {
				proj := &sbtProject{name: r.text(name), dir: filepath.Join(root.dir, r.text(name))}
				r.project(v, proj)
				b.projects[proj.name] = proj
			}
		default:
			r.setting(n, root)
		}
	}
	return b, nil
}

type sbtReader struct {
	src  []byte
	b    *sbtBuild
	vals map[string]string
}

func (r *sbtReader) text(n *sitter.Node) string { return string(r.src[n.StartByte():n.EndByte()]) }

func (r *sbtReader) line(n *sitter.Node) int { return int(n.StartPosition().Row) + 1 }

// isProject reports whether an expression builds a project: it mentions
// the identifier project at its innermost receiver.
func (r *sbtReader) isProject(n *sitter.Node) bool {
	for n != nil {
		switch n.Kind() {
		case "identifier":
			return r.text(n) == "project"
		case "call_expression":
			n = n.ChildByFieldName("function")
		case "field_expression":
			n = n.ChildByFieldName("value")
		case "parenthesized_expression":
			n = n.NamedChild(0)
		case "infix_expression":
			n = n.ChildByFieldName("left")
		default:
			return false
		}
	}
	return false
}

// project reads a project expression's chain: its folder, settings and
// dependsOn.
func (r *sbtReader) project(n *sitter.Node, p *sbtProject) {
	switch n.Kind() {
	case "parenthesized_expression":
		if n.NamedChildCount() > 0 {
			r.project(n.NamedChild(0), p)
		}
	case "infix_expression": // project in file("d")
		if op := n.ChildByFieldName("operator"); op != nil && r.text(op) == "in" {
			r.folder(n.ChildByFieldName("right"), p)
		}
	case "call_expression":
		fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
		if fn == nil || fn.Kind() != "field_expression" || args == nil {
			return
		}
		r.project(fn.ChildByFieldName("value"), p)
		switch r.text(fn.ChildByFieldName("field")) {
		case "in":
			if args.NamedChildCount() > 0 {
				r.folder(args.NamedChild(0), p)
			}
		case "settings":
			for i := uint(0); i < args.NamedChildCount(); i++ {
				r.setting(args.NamedChild(i), p)
			}
		case "dependsOn":
			for i := uint(0); i < args.NamedChildCount(); i++ {
				a := args.NamedChild(i)
				// core % "compile->compile;test->test"
				for a.Kind() == "infix_expression" {
					a = a.ChildByFieldName("left")
				}
				if a.Kind() == "identifier" {
					p.dependsOn = append(p.dependsOn, r.text(a))
				}
			}
		}
	}
}

// folder reads file("d") as the project's base folder.
func (r *sbtReader) folder(n *sitter.Node, p *sbtProject) {
	if n == nil || n.Kind() != "call_expression" {
		return
	}
	args := n.ChildByFieldName("arguments")
	if fn := n.ChildByFieldName("function"); fn == nil || r.text(fn) != "file" || args == nil || args.NamedChildCount() != 1 {
		return
	}
	if s, ok := r.str(args.NamedChild(0)); ok {
		p.dir = filepath.Join(filepath.Dir(r.b.path), filepath.FromSlash(s))
	}
}

// flatten splits a chain of infix operations into its operands and
// operators, left to right.
func (r *sbtReader) flatten(n *sitter.Node) (operands []*sitter.Node, ops []string) {
	for n.Kind() == "infix_expression" {
		operands = append([]*sitter.Node{n.ChildByFieldName("right")}, operands...)
		ops = append([]string{r.text(n.ChildByFieldName("operator"))}, ops...)
		n = n.ChildByFieldName("left")
	}
	return append([]*sitter.Node{n}, operands...), ops
}

// setting reads one setting: scalaVersion := "…" or libraryDependencies
// += dep / ++= Seq(deps). The grammar gives :=, += and ++= the precedence
// of any operator, where Scala gives assignment operators the lowest, so
// the chain is read flat and split at the first of them.
func (r *sbtReader) setting(n *sitter.Node, p *sbtProject) {
	if n.Kind() != "infix_expression" {
		return
	}
	operands, ops := r.flatten(n)
	k := -1
	for i, op := range ops {
		if op == ":=" || op == "+=" || op == "++=" {
			k = i
			break
		}
	}
	if k < 0 {
		return
	}
	key, op, rhs, rops := r.text(operands[k]), ops[k], operands[k+1:], ops[k+1:]
	switch {
	case key == "scalaVersion" && op == ":=":
		if s, ok := r.str(rhs[0]); ok && len(rhs) == 1 {
			r.b.scalaVersion = s
		}
	case key == "libraryDependencies" && op == "+=":
		r.dep(n, rhs, rops, p)
	case key == "libraryDependencies" && op == "++=":
		if len(rhs) == 1 && rhs[0].Kind() == "call_expression" {
			if fn := rhs[0].ChildByFieldName("function"); fn != nil && (r.text(fn) == "Seq" || r.text(fn) == "List") {
				args := rhs[0].ChildByFieldName("arguments")
				for i := uint(0); args != nil && i < args.NamedChildCount(); i++ {
					parts, pops := r.flatten(args.NamedChild(i))
					r.dep(args.NamedChild(i), parts, pops, p)
				}
				return
			}
		}
		r.problem(p, n, "libraryDependencies ++= of a form udfx does not read")
	}
}

// dep reads "g" % "a" % "v" [% scope], with %% for a Scala artifact, from
// its operands and operators; at is the node for messages.
func (r *sbtReader) dep(at *sitter.Node, parts []*sitter.Node, ops []string, p *sbtProject) {
	text := strings.Join(strings.Fields(r.text(at)), " ")
	if len(parts) < 3 || len(parts) > 4 {
		r.problem(p, at, "a dependency udfx does not read: "+text)
		return
	}
	d := sbtDep{line: r.line(at)}
	var vals []string
	for i, part := range parts {
		if i == 3 { // the configuration: "provided", Test, "test->default"
			d.Scope = strings.ToLower(strings.Trim(r.text(part), `"`))
			if j := strings.IndexAny(d.Scope, "-;"); j >= 0 {
				d.Scope = d.Scope[:j]
			}
			continue
		}
		s, ok := r.str(part)
		if !ok {
			r.problem(p, at, fmt.Sprintf("dependency %s: %s is not a string udfx can read", text, r.text(part)))
			return
		}
		vals = append(vals, s)
	}
	for i, op := range ops {
		switch {
		case i == 0 && (op == "%%" || op == "%%%"):
			d.cross = true
		case op != "%":
			r.problem(p, at, "a dependency udfx does not read (operator "+op+"): "+text)
			return
		}
	}
	d.GroupID, d.ArtifactID, d.Version = vals[0], vals[1], vals[2]
	p.deps = append(p.deps, d)
}

// str is a string literal's or a string val's value.
func (r *sbtReader) str(n *sitter.Node) (string, bool) {
	switch n.Kind() {
	case "string":
		t := r.text(n)
		if strings.HasPrefix(t, `"""`) {
			return "", false
		}
		return unquote(t), true
	case "identifier":
		v, ok := r.vals[r.text(n)]
		return v, ok
	}
	return "", false
}

func (r *sbtReader) problem(p *sbtProject, n *sitter.Node, msg string) {
	r.b.problems[p.name] = append(r.b.problems[p.name], fmt.Sprintf("line %d: %s", r.line(n), msg))
}

func unquote(s string) string { return strings.TrimSuffix(strings.TrimPrefix(s, `"`), `"`) }

// projectOf is the project whose folder holds file: the deepest.
func (b *sbtBuild) projectOf(file string) *sbtProject {
	var best *sbtProject
	for _, name := range slices.Sorted(maps.Keys(b.projects)) {
		p := b.projects[name]
		if !strings.HasPrefix(file, p.dir+string(filepath.Separator)) {
			continue
		}
		// A project defined in the root folder is that folder's project,
		// not the file's top level.
		if best == nil || len(p.dir) > len(best.dir) || len(p.dir) == len(best.dir) && best.name == "" {
			best = p
		}
	}
	return best
}

// sourceRoots are a project's main source folders that exist.
func (p *sbtProject) sourceRoots() []string {
	var out []string
	for _, c := range []string{"src/main/scala", "src/main/java"} {
		d := filepath.Join(p.dir, filepath.FromSlash(c))
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// resolveSbt is the classpath of the sbt project holding file: the
// sources of it and of the projects it depends on, and their libraries
// resolved by Maven over a pom udfx writes (as for a Maven module).
func resolveSbt(ctx context.Context, buildFile, file, root string, opts Options) (*Classpath, error) {
	build := rel(root, buildFile)
	b, err := readSbt(buildFile)
	if err != nil {
		return nil, &Error{Build: build, Msg: err.Error()}
	}
	own := b.projectOf(file)
	if own == nil {
		return nil, nil
	}
	cp := &Classpath{Build: build}
	var external []dependency
	done := map[string]bool{}
	todo := []*sbtProject{own}
	for len(todo) > 0 {
		p := todo[0]
		todo = todo[1:]
		if done[p.name] {
			continue
		}
		done[p.name] = true
		if probs := b.problems[p.name]; len(probs) > 0 {
			return nil, &Error{Build: build, Msg: strings.Join(probs, "; ")}
		}
		cp.SourceRoots = append(cp.SourceRoots, p.sourceRoots()...)
		for _, name := range p.dependsOn {
			q, ok := b.projects[name]
			if !ok {
				return nil, &Error{Build: build, Msg: fmt.Sprintf("project %s depends on %s, which udfx does not find in the build", p.name, name)}
			}
			todo = append(todo, q)
		}
		for _, d := range p.deps {
			if d.Scope == "test" || sparkProvides(d.dependency) {
				continue
			}
			if d.cross {
				bin := scalaBinary(b.scalaVersion)
				if bin != sparkScalaBinary {
					why := "sets no scalaVersion (sbt's default is 2.12)"
					if b.scalaVersion != "" {
						why = "sets scalaVersion " + b.scalaVersion
					}
					return nil, &Error{Build: build, Msg: fmt.Sprintf("line %d: %s %%%% %s needs the build's Scala version, and the build %s; udfx runs originals on Spark 4.1.1's Scala %s", d.line, d.GroupID, d.ArtifactID, why, sparkScalaBinary)}
				}
				d.ArtifactID += "_" + bin
			}
			external = append(external, d.dependency)
		}
	}
	return resolveExternal(ctx, build, cp, external, nil, opts)
}

// scalaBinary is 2.13 for 2.13.14, 3 for 3.3.1.
func scalaBinary(v string) string {
	parts := strings.Split(v, ".")
	if len(parts) >= 1 && parts[0] == "3" {
		return "3"
	}
	if len(parts) >= 2 {
		return parts[0] + "." + parts[1]
	}
	return v
}
