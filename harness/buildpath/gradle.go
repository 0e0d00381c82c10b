package buildpath

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/udfx/udfx/internal/regular"
)

// A Gradle build is read as data, like the others: no Groovy or Kotlin of
// the repository is run (Gradle's build scripts are programs a pull
// request controls, and no tree-sitter grammar for either is served
// here). udfx reads the declarative part real builds mostly consist of
// (settings' include, string variables, dependencies blocks) token by
// token, and anything else in a dependencies block it needs is an error
// naming the line, never a guess.

// gradleBuildFiles are the build script names of a Gradle project.
var gradleBuildFiles = []string{"build.gradle", "build.gradle.kts"}

// gradleSettingsFiles are the settings script names of a Gradle build.
var gradleSettingsFiles = []string{"settings.gradle", "settings.gradle.kts"}

// gtok is one token of a Groovy or Kotlin build script.
type gtok struct {
	kind byte // 'i' identifier, 's' string, 'p' punctuation, 'n' anything else
	text string
	line int
	// interp is a double-quoted string that may hold $name or ${name}.
	interp bool
}

// lexGradle splits a script into tokens, comments dropped. It is total:
// an unterminated string or comment ends at the end of the file.
func lexGradle(src []byte) []gtok {
	var out []gtok
	line := 1
	i := 0
	n := len(src)
	for i < n {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == ';':
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			i += 2
			for i < n && !(src[i] == '*' && i+1 < n && src[i+1] == '/') {
				if src[i] == '\n' {
					line++
				}
				i++
			}
			i += 2
		case c == '\'' || c == '"':
			start := line
			quote := string(c)
			if i+2 < n && src[i+1] == c && src[i+2] == c {
				quote = strings.Repeat(quote, 3)
			}
			i += len(quote)
			var b strings.Builder
			for i < n && !bytes.HasPrefix(src[i:], []byte(quote)) {
				if src[i] == '\\' && i+1 < n {
					i++
					switch src[i] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					default:
						b.WriteByte(src[i])
					}
					i++
					continue
				}
				if src[i] == '\n' {
					line++
				}
				b.WriteByte(src[i])
				i++
			}
			i += len(quote)
			out = append(out, gtok{kind: 's', text: b.String(), line: start, interp: c == '"'})
		case isIdentStart(c):
			j := i
			for j < n && (isIdentStart(src[j]) || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			out = append(out, gtok{kind: 'i', text: string(src[i:j]), line: line})
			i = j
		case strings.IndexByte("{}()[],.=:", c) >= 0:
			out = append(out, gtok{kind: 'p', text: string(c), line: line})
			i++
		default:
			out = append(out, gtok{kind: 'n', text: string(c), line: line})
			i++
		}
	}
	return out
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// gradleDep is one dependency a dependencies block declares: a library
// (its coordinate) or a project of the build (project path ":common").
type gradleDep struct {
	dependency
	project string
	bom     bool // platform(...): versions only
	line    int
}

// gradleScript is what udfx reads of one build script.
type gradleScript struct {
	path string
	vars map[string]string
	// deps are the script's own dependencies block; sub and all those of
	// subprojects { } and allprojects { } (read in the root script only).
	deps, sub, all []gradleDep
	// problems are forms udfx does not read in a dependencies block (of
	// the script's own; shared: of subprojects { } or allprojects { }): an
	// error once a UDF's project needs them.
	problems, shared problemList
}

// problemList holds forms udfx does not read, each naming its line.
type problemList []string

func (p *problemList) add(line int, format string, args ...any) {
	*p = append(*p, fmt.Sprintf("line %d: ", line)+fmt.Sprintf(format, args...))
}

// mainConfigurations are the configurations whose libraries a job's
// main code compiles and runs with.
var mainConfigurations = map[string]bool{
	"implementation": true, "api": true, "compile": true, "compileOnly": true, "compileOnlyApi": true,
	"runtimeOnly": true, "runtime": true, "compileClasspath": true, "runtimeClasspath": true,
}

// ignoredConfiguration reports configurations that add nothing to the
// main classpath: tests', annotation processors', tools'.
func ignoredConfiguration(name string) bool {
	return strings.HasPrefix(name, "test") || strings.Contains(name, "Test") ||
		slices.Contains([]string{"annotationProcessor", "kapt", "ksp", "detektPlugins", "errorprone", "checkstyle", "pmd", "spotbugs", "spotbugsPlugins", "jmh"}, name)
}

// readGradleScript reads one build script; vars are the variables it may
// use (gradle.properties, the root script's), extended by its own.
func readGradleScript(path string, vars map[string]string, root bool) (*gradleScript, error) {
	src, err := regular.ReadFile(path, 1<<20)
	if err != nil {
		return nil, err
	}
	s := &gradleScript{path: path, vars: maps.Clone(vars)}
	toks := lexGradle(src)
	var stack []string // the blocks the tokens are in
	declared := -1     // the name token of the last declaration read
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == 'p' && t.text == "{":
			name := ""
			if i > 0 && toks[i-1].kind == 'i' {
				name = toks[i-1].text
			} else if i > 0 && toks[i-1].text == ")" {
				name = callName(toks, i-1)
			}
			stack = append(stack, name)
			if list, probs, ok := s.depsBlock(stack, root); ok {
				j := s.readDeps(toks, i+1, list, probs)
				stack = stack[:len(stack)-1]
				i = j
			} else if name == "dependencies" && stack[0] != "buildscript" {
				// Dependencies of some project or source set udfx does
				// not attribute (project(':x') { }, configure(...),
				// kotlin { sourceSets { } }): they may be the UDF's.
				probs := &s.problems
				if root {
					probs = &s.shared
				}
				probs.add(t.line, "a dependencies block inside %s { } is not read", strings.Join(stack[:len(stack)-1], " { "))
			}
		case t.kind == 'p' && t.text == "}":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case t.kind == 'i' && i == declared:
			// The name of the declaration just read.
		case t.kind == 'i' && (len(stack) == 0 || len(stack) == 1 && stack[0] == "ext"):
			if name, ok := s.variable(toks, i, len(stack) == 1); ok {
				declared = name
			} else {
				s.unsure(toks, i)
			}
		case t.kind == 'i':
			s.unsure(toks, i)
		}
	}
	return s, nil
}

// callName names the call whose closing parenthesis is toks[end], for
// messages: "project(...)", or "(...)" when no name precedes it.
func callName(toks []gtok, end int) string {
	depth := 0
	for k := end; k >= 0; k-- {
		switch toks[k].text {
		case ")":
			depth++
		case "(":
			depth--
			if depth == 0 {
				if k > 0 && toks[k-1].kind == 'i' {
					return toks[k-1].text + "(...)"
				}
				return "(...)"
			}
		}
	}
	return "(...)"
}

// depsBlock is the dependency list a block path declares into, and where
// its problems go; false for a path that declares none udfx reads.
func (s *gradleScript) depsBlock(stack []string, root bool) (*[]gradleDep, *problemList, bool) {
	switch {
	case len(stack) == 1 && stack[0] == "dependencies":
		return &s.deps, &s.problems, true
	case root && len(stack) == 2 && stack[1] == "dependencies" && stack[0] == "subprojects":
		return &s.sub, &s.shared, true
	case root && len(stack) == 2 && stack[1] == "dependencies" && stack[0] == "allprojects":
		return &s.all, &s.shared, true
	}
	return nil, nil, false
}

// variable reads `def|val|var NAME = "v"`, `ext.NAME = "v"`,
// `ext["NAME"] = "v"` at the top level and `NAME = "v"` inside ext { }.
// It reports whether toks[i] starts such a declaration, and the index of
// its name's token.
func (s *gradleScript) variable(toks []gtok, i int, inExt bool) (int, bool) {
	at := func(k int) gtok {
		if k < len(toks) {
			return toks[k]
		}
		return gtok{}
	}
	name, k, at0 := "", i, i
	switch {
	case inExt && at(i+1).text == "=":
		name, k = toks[i].text, i+2
	case !inExt && slices.Contains([]string{"def", "val", "var", "String"}, toks[i].text) && at(i+1).kind == 'i' && at(i+2).text == "=":
		name, k, at0 = at(i+1).text, i+3, i+1
	case !inExt && toks[i].text == "ext" && at(i+1).text == "." && at(i+2).kind == 'i' && at(i+3).text == "=":
		name, k, at0 = at(i+2).text, i+4, i+2
	case !inExt && toks[i].text == "ext" && at(i+1).text == "[" && at(i+2).kind == 's' && at(i+3).text == "]" && at(i+4).text == "=":
		name, k, at0 = at(i+2).text, i+5, i+2
	default:
		return -1, false
	}
	delete(s.vars, name)
	if v := at(k); v.kind == 's' && (k+1 >= len(toks) || toks[k+1].line > v.line || toks[k+1].text == "}") {
		if val, ok := s.expand(v); ok {
			s.vars[name] = val
		}
	}
	return at0, true
}

// unsure forgets a variable any other assignment may change (NAME = ...,
// ext.NAME = ... in a block, a reassignment in an if): a value udfx is not
// sure of is no value, and a dependency that uses it is an error.
func (s *gradleScript) unsure(toks []gtok, i int) {
	if i+1 >= len(toks) || toks[i+1].text != "=" {
		return
	}
	if i > 0 && toks[i-1].text == "." && (i < 2 || toks[i-2].text != "ext") {
		return // a property of something else: x.y = ...
	}
	if i > 0 && slices.Contains([]string{"def", "val", "var", "String"}, toks[i-1].text) {
		// A declaration in a block: a variable of its own, which
		// shadows a top-level one only there.
		return
	}
	delete(s.vars, toks[i].text)
}

// expand is a string token's value with $name and ${name} replaced by the
// variables read; false when one is unknown or not a plain name.
func (s *gradleScript) expand(t gtok) (string, bool) {
	if !t.interp || !strings.Contains(t.text, "$") {
		return t.text, true
	}
	var b strings.Builder
	v := t.text
	for {
		i := strings.IndexByte(v, '$')
		if i < 0 {
			b.WriteString(v)
			return b.String(), true
		}
		b.WriteString(v[:i])
		v = v[i+1:]
		var name string
		if strings.HasPrefix(v, "{") {
			end := strings.IndexByte(v, '}')
			if end < 0 {
				return "", false
			}
			name, v = strings.TrimSpace(v[1:end]), v[end+1:]
			// project.ext.x, rootProject.ext.x, extra["x"]: the name
			// at the end is the variable read.
			for _, p := range []string{"rootProject.ext.", "project.ext.", "ext.", "rootProject.", "project."} {
				name = strings.TrimPrefix(name, p)
			}
		} else {
			j := 0
			for j < len(v) && (isIdentStart(v[j]) && v[j] != '$' || j > 0 && v[j] >= '0' && v[j] <= '9') {
				j++
			}
			name, v = v[:j], v[j:]
		}
		val, ok := s.vars[name]
		if !ok || name == "" {
			return "", false
		}
		b.WriteString(val)
	}
}

// readDeps reads a dependencies block from toks[i] to its closing brace
// and returns that brace's index.
func (s *gradleScript) readDeps(toks []gtok, i int, list *[]gradleDep, probs *problemList) int {
	for i < len(toks) {
		t := toks[i]
		if t.text == "}" && t.kind == 'p' {
			return i
		}
		if t.kind != 'i' {
			probs.add(t.line, "`%s` where a dependency is declared", t.text)
			return skipBlock(toks, i)
		}
		conf := t.text
		// The statement: every token up to the next one on a later line
		// at the same nesting (a call's arguments may span lines).
		j, depth := i+1, 0
		for j < len(toks) {
			u := toks[j]
			if depth == 0 && u.line > toks[j-1].line && !(u.text == "," || toks[j-1].text == "," || toks[j-1].text == "(") {
				break
			}
			if u.kind == 'p' && (u.text == "(" || u.text == "{" || u.text == "[") {
				depth++
			}
			if u.kind == 'p' && (u.text == ")" || u.text == "}" || u.text == "]") {
				if depth == 0 {
					break
				}
				depth--
			}
			j++
		}
		stmt := toks[i+1 : j]
		switch {
		case ignoredConfiguration(conf):
		case !mainConfigurations[conf]:
			probs.add(t.line, "`%s` in dependencies is not a configuration udfx reads (implementation, api, compileOnly, runtimeOnly, ...)", conf)
		default:
			if d, ok := s.dep(t.line, stmt, probs); ok {
				*list = append(*list, d)
			}
		}
		i = j
	}
	return i
}

// skipBlock is the index of the brace that closes the block toks[i] is in.
func skipBlock(toks []gtok, i int) int {
	depth := 0
	for ; i < len(toks); i++ {
		switch toks[i].text {
		case "{":
			depth++
		case "}":
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return i
}

// dep reads one declaration's arguments: "g:a:v", group: "g", name: "a",
// version: "v" (Groovy) or group = ... (Kotlin), project(":p"),
// platform("g:a:v"), each with or without parentheses.
func (s *gradleScript) dep(line int, stmt []gtok, probs *problemList) (gradleDep, bool) {
	text := func() string {
		var b strings.Builder
		for k, t := range stmt {
			word := t.kind == 'i' || t.kind == 's'
			if k > 0 && word && (stmt[k-1].kind == 'i' || stmt[k-1].kind == 's') {
				b.WriteByte(' ')
			}
			if t.kind == 's' {
				b.WriteString(`"` + t.text + `"`)
			} else {
				b.WriteString(t.text)
			}
		}
		return b.String()
	}
	args := stmt
	if len(args) >= 2 && args[0].text == "(" && args[len(args)-1].text == ")" {
		args = args[1 : len(args)-1]
	}
	if len(args) > 0 && args[len(args)-1].text == "}" {
		probs.add(line, "dependency %s has a configuration block (exclude, transitive, ...), which udfx does not apply", text())
		return gradleDep{}, false
	}
	wrapper := ""
	if len(args) >= 3 && args[0].kind == 'i' && args[1].text == "(" && args[len(args)-1].text == ")" {
		wrapper, args = args[0].text, args[2:len(args)-1]
	}
	d := gradleDep{line: line}
	switch wrapper {
	case "":
	case "project":
		if len(args) == 3 && args[0].text == "path" && args[2].kind == 's' {
			args = args[2:]
		}
		if len(args) == 1 && args[0].kind == 's' {
			d.project = args[0].text
			return d, true
		}
		probs.add(line, "dependency %s: a project udfx does not read", text())
		return d, false
	case "platform", "enforcedPlatform":
		d.bom = true
	default:
		probs.add(line, "dependency %s is not a coordinate udfx reads (files, version catalogs and helper calls are not read)", text())
		return d, false
	}
	switch {
	case len(args) == 1 && args[0].kind == 's':
		v, ok := s.expand(args[0])
		if !ok {
			// Spark's own libraries are Spark's whatever their version.
			if g, _, _ := strings.Cut(args[0].text, ":"); !strings.Contains(g, "$") && sparkProvides(dependency{GroupID: g}) {
				return d, false
			}
			probs.add(line, "dependency %s uses a variable udfx does not find", text())
			return d, false
		}
		parts := strings.Split(v, ":")
		if len(parts) < 2 || len(parts) > 4 {
			probs.add(line, "dependency %q is not group:artifact:version", v)
			return d, false
		}
		d.GroupID, d.ArtifactID = parts[0], parts[1]
		if len(parts) > 2 {
			d.Version = parts[2]
		}
		if len(parts) > 3 {
			d.Classifier = parts[3]
		}
		if at := strings.IndexByte(d.Version, '@'); at >= 0 {
			d.Version, d.Type = d.Version[:at], d.Version[at+1:]
		}
		return d, true
	case len(args) >= 3 && args[0].kind == 'i' && (args[1].text == ":" || args[1].text == "="):
		// Named arguments, comma-separated.
		for k := 0; k < len(args); k += 4 {
			if k+2 >= len(args) || args[k].kind != 'i' || args[k+2].kind != 's' || k+3 < len(args) && args[k+3].text != "," {
				probs.add(line, "dependency %s is not one udfx reads", text())
				return d, false
			}
			v, ok := s.expand(args[k+2])
			if !ok {
				if args[k].text == "version" && d.GroupID != "" && sparkProvides(d.dependency) {
					return d, false
				}
				probs.add(line, "dependency %s uses a variable udfx does not find", text())
				return d, false
			}
			switch args[k].text {
			case "group":
				d.GroupID = v
			case "name":
				d.ArtifactID = v
			case "version":
				d.Version = v
			case "classifier":
				d.Classifier = v
			case "ext":
				d.Type = v
			default:
				probs.add(line, "dependency %s: %s is not read", text(), args[k].text)
				return d, false
			}
		}
		if d.GroupID == "" || d.ArtifactID == "" {
			probs.add(line, "dependency %s names no group or no name", text())
			return d, false
		}
		return d, true
	}
	probs.add(line, "dependency %s is not one udfx reads", text())
	return d, false
}

// gradleSettings is what udfx reads of settings.gradle: the build's
// folder and its projects' folders by path (":a:b").
type gradleSettings struct {
	dir      string
	projects map[string]string
}

// readGradleSettings reads include ":a", "b:c" (with or without
// parentheses; a project's folder is its path's parts under the build's
// folder) and project(":a").projectDir = file("dir").
func readGradleSettings(dir string) (*gradleSettings, error) {
	s := &gradleSettings{dir: dir, projects: map[string]string{":": dir}}
	for _, name := range gradleSettingsFiles {
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		src, err := regular.ReadFile(path, 1<<20)
		if err != nil {
			return nil, err
		}
		toks := lexGradle(src)
		for i := 0; i < len(toks); i++ {
			t := toks[i]
			if t.kind == 'i' && t.text == "include" {
				for j := i + 1; j < len(toks) && (toks[j].line == t.line || toks[j-1].text == "," || toks[j-1].text == "("); j++ {
					if toks[j].kind == 's' {
						p := ":" + strings.TrimPrefix(toks[j].text, ":")
						s.projects[p] = filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(strings.TrimPrefix(p, ":"), ":", "/")))
					}
				}
			}
			// project(":a").projectDir = file("dir")
			if t.kind == 'i' && t.text == "project" && i+9 < len(toks) && toks[i+1].text == "(" && toks[i+2].kind == 's' && toks[i+3].text == ")" &&
				toks[i+4].text == "." && toks[i+5].text == "projectDir" && toks[i+6].text == "=" && toks[i+7].text == "file" && toks[i+8].text == "(" && toks[i+9].kind == 's' {
				p := ":" + strings.TrimPrefix(toks[i+2].text, ":")
				s.projects[p] = filepath.Join(dir, filepath.FromSlash(toks[i+9].text))
			}
		}
	}
	return s, nil
}

// readProperties reads a gradle.properties file's key=value lines.
func readProperties(path string, into map[string]string) {
	b, err := regular.ReadFile(path, 1<<20)
	if err != nil {
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || l[0] == '#' || l[0] == '!' {
			continue
		}
		if k, v, ok := strings.Cut(l, "="); ok {
			into[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
}

// gradleScriptIn is the build script of a project folder, "" when none.
func gradleScriptIn(dir string) string {
	for _, name := range gradleBuildFiles {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// settingsDirOf is the folder of the settings script nearest above
// module, up to root; module itself when there is none.
func settingsDirOf(module, root string) string {
	for dir := module; ; dir = filepath.Dir(dir) {
		for _, name := range gradleSettingsFiles {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				return dir
			}
		}
		if dir == root || !strings.HasPrefix(dir, root+string(filepath.Separator)) {
			return module
		}
	}
}

// resolveGradle is the classpath of the Gradle project whose build
// script is buildFile: its sources and those of the projects it depends
// on, and their libraries resolved by Maven over a pom udfx writes.
func resolveGradle(ctx context.Context, buildFile, file, root string, opts Options) (*Classpath, error) {
	module := filepath.Dir(buildFile)
	settings, err := readGradleSettings(settingsDirOf(module, root))
	if err != nil {
		return nil, &Error{Build: rel(root, buildFile), Msg: err.Error()}
	}
	vars := map[string]string{}
	readProperties(filepath.Join(settings.dir, "gradle.properties"), vars)
	var rootScript *gradleScript
	if p := gradleScriptIn(settings.dir); p != "" {
		if rootScript, err = readGradleScript(p, vars, true); err != nil {
			return nil, &Error{Build: rel(root, p), Msg: err.Error()}
		}
		vars = rootScript.vars
	}
	// The file's project is the included one of the deepest folder
	// holding it: a subproject without a script of its own is configured
	// by the root script.
	own := ""
	for _, p := range slices.Sorted(maps.Keys(settings.projects)) {
		dir := settings.projects[p]
		if strings.HasPrefix(file, dir+string(filepath.Separator)) && (own == "" || len(dir) > len(settings.projects[own])) {
			own = p
		}
	}
	if own == "" || len(module) > len(settings.projects[own]) {
		// The nearest build script is in a folder the settings do not
		// include as a project.
		return nil, &Error{Build: rel(root, buildFile), Msg: fmt.Sprintf("the project in %s is not included by the settings in %s", rel(root, module), rel(root, settings.dir))}
	}
	build := rel(root, buildFile)
	if script := gradleScriptIn(settings.projects[own]); script != "" {
		build = rel(root, script)
	}
	cp := &Classpath{Build: build}
	var external, boms []dependency
	done := map[string]bool{}
	todo := []string{own}
	for len(todo) > 0 {
		p := todo[0]
		todo = todo[1:]
		if done[p] {
			continue
		}
		done[p] = true
		dir := settings.projects[p]
		s := rootScript
		if p != ":" || s == nil {
			script := gradleScriptIn(dir)
			if script == "" {
				s = &gradleScript{}
			} else {
				pv := maps.Clone(vars)
				readProperties(filepath.Join(dir, "gradle.properties"), pv)
				if s, err = readGradleScript(script, pv, false); err != nil {
					return nil, &Error{Build: rel(root, script), Msg: err.Error()}
				}
			}
		}
		deps := slices.Clone(s.deps)
		problems := slices.Clone(s.problems)
		if rootScript != nil {
			deps = append(deps, rootScript.all...)
			if p != ":" {
				deps = append(deps, rootScript.sub...)
			}
			problems = append(problems, rootScript.shared...)
		}
		if len(problems) > 0 {
			where := build
			if s.path != "" {
				where = rel(root, s.path)
			}
			return nil, &Error{Build: where, Msg: strings.Join(problems, "; ")}
		}
		for _, c := range []string{"src/main/java", "src/main/scala"} {
			d := filepath.Join(dir, filepath.FromSlash(c))
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				cp.SourceRoots = append(cp.SourceRoots, d)
			}
		}
		for _, d := range deps {
			switch {
			case d.project != "":
				q := ":" + strings.TrimPrefix(d.project, ":")
				if _, ok := settings.projects[q]; !ok {
					return nil, &Error{Build: build, Msg: fmt.Sprintf("line %d: project %s is not included by the build's settings", d.line, d.project)}
				}
				todo = append(todo, q)
			case sparkProvides(d.dependency):
			case d.bom:
				boms = append(boms, d.dependency)
			default:
				external = append(external, d.dependency)
			}
		}
	}
	return resolveExternal(ctx, build, cp, external, boms, opts)
}
