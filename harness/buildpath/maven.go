package buildpath

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/udfx/udfx/harness/internal/buildcache"
	"github.com/udfx/udfx/internal/execpath"
	"github.com/udfx/udfx/internal/regular"
)

// pom is the part of a pom.xml udfx reads. Profiles are not read: which
// one a job's build activates is not in the file.
type pom struct {
	Parent struct {
		GroupID      string  `xml:"groupId"`
		ArtifactID   string  `xml:"artifactId"`
		Version      string  `xml:"version"`
		RelativePath *string `xml:"relativePath"`
	} `xml:"parent"`
	GroupID    string `xml:"groupId"`
	ArtifactID string `xml:"artifactId"`
	Version    string `xml:"version"`
	Properties struct {
		Entries []property `xml:",any"`
	} `xml:"properties"`
	Managed      []dependency `xml:"dependencyManagement>dependencies>dependency"`
	Dependencies []dependency `xml:"dependencies>dependency"`
	Build        struct {
		SourceDirectory string `xml:"sourceDirectory"`
	} `xml:"build"`

	// dir is the folder of the pom.xml, path its file.
	dir, path string
	// parent is the parent pom when it is in the repository.
	parent *pom
}

type property struct {
	XMLName xml.Name
	Value   string `xml:",chardata"`
}

type dependency struct {
	GroupID    string      `xml:"groupId"`
	ArtifactID string      `xml:"artifactId"`
	Version    string      `xml:"version"`
	Type       string      `xml:"type"`
	Classifier string      `xml:"classifier"`
	Scope      string      `xml:"scope"`
	Exclusions []exclusion `xml:"exclusions>exclusion"`
}

type exclusion struct {
	GroupID    string `xml:"groupId"`
	ArtifactID string `xml:"artifactId"`
}

// maxPoms bounds how many build files of a repository are read.
const maxPoms = 2000

// skipDirs are never searched for modules: version control, build
// output, environments and udfx's own workspace.
var skipDirs = map[string]bool{".git": true, "target": true, "node_modules": true, ".venv": true, ".udfx": true, "build": true}

// readPom reads one pom.xml.
func readPom(path string) (*pom, error) {
	b, err := regular.ReadFile(path, 4<<20)
	if err != nil {
		return nil, err
	}
	var p pom
	if err := xml.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("not a pom udfx can read: %v", err)
	}
	p.path, p.dir = path, filepath.Dir(path)
	return &p, nil
}

func (p *pom) groupID() string {
	if p.GroupID != "" {
		return p.GroupID
	}
	return p.Parent.GroupID
}

func (p *pom) version() string {
	if p.Version != "" {
		return p.Version
	}
	return p.Parent.Version
}

// reactor is every pom.xml of the repository, by groupId:artifactId.
type reactor struct {
	root string
	poms map[string]*pom
}

// readReactor reads the repository's build files. One that does not
// parse is skipped unless it is the module's own (the caller reads that
// one itself): a broken build file elsewhere says nothing about this one.
func readReactor(root string) (*reactor, error) {
	r := &reactor{root: root, poms: map[string]*pom{}}
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if path != root && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != "pom.xml" || !d.Type().IsRegular() {
			return nil
		}
		if n++; n > maxPoms {
			return fmt.Errorf("more than %d pom.xml files under %s", maxPoms, root)
		}
		if p, err := readPom(path); err == nil {
			r.poms[p.groupID()+":"+p.ArtifactID] = p
		}
		return nil
	})
	return r, err
}

// link sets the in-repository parents of p and its ancestors.
func (r *reactor) link(p *pom) {
	for seen := 0; p != nil && p.parent == nil && p.Parent.ArtifactID != "" && seen < 50; seen++ {
		rp := "../pom.xml"
		if p.Parent.RelativePath != nil {
			rp = *p.Parent.RelativePath
		}
		if rp == "" {
			return
		}
		path := filepath.Join(p.dir, filepath.FromSlash(rp))
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			path = filepath.Join(path, "pom.xml")
		}
		var parent *pom
		for _, q := range r.poms {
			if q.path == path && q.ArtifactID == p.Parent.ArtifactID {
				parent = q
			}
		}
		if parent == nil {
			// The parent is outside the repository (a framework's parent
			// pom): what it declares is not read.
			return
		}
		p.parent = parent
		p = parent
	}
}

// chain is p and its in-repository parents, nearest first.
func (p *pom) chain() []*pom {
	var out []*pom
	for q := p; q != nil && len(out) < 50; q = q.parent {
		out = append(out, q)
	}
	return out
}

// properties are p's properties with its parents', the nearest winning,
// and the project's own coordinates.
func (p *pom) properties() map[string]string {
	props := map[string]string{}
	ch := p.chain()
	for i := len(ch) - 1; i >= 0; i-- {
		for _, e := range ch[i].Properties.Entries {
			props[e.XMLName.Local] = strings.TrimSpace(e.Value)
		}
	}
	for _, k := range []string{"project.", "pom.", ""} {
		props[k+"groupId"] = p.groupID()
		props[k+"artifactId"] = p.ArtifactID
		props[k+"version"] = p.version()
	}
	props["project.parent.version"] = p.Parent.Version
	props["project.parent.groupId"] = p.Parent.GroupID
	props["project.basedir"] = p.dir
	props["basedir"] = p.dir
	return props
}

var propertyRE = regexp.MustCompile(`\$\{([^}]+)\}`)

// interpolate replaces ${name} by its value, to a bounded depth.
func interpolate(s string, props map[string]string) string {
	for i := 0; i < 10 && strings.Contains(s, "${"); i++ {
		s = propertyRE.ReplaceAllStringFunc(s, func(m string) string {
			if v, ok := props[m[2:len(m)-1]]; ok {
				return v
			}
			return m
		})
	}
	return strings.TrimSpace(s)
}

func (d dependency) key() string { return d.GroupID + ":" + d.ArtifactID }

func (d dependency) interpolated(props map[string]string) dependency {
	d.GroupID = interpolate(d.GroupID, props)
	d.ArtifactID = interpolate(d.ArtifactID, props)
	d.Version = interpolate(d.Version, props)
	d.Type = interpolate(d.Type, props)
	d.Classifier = interpolate(d.Classifier, props)
	d.Scope = strings.TrimSpace(d.Scope)
	return d
}

// effective is p's dependencies as Maven sees them: inherited from its
// parents, versions and scopes filled from dependencyManagement, and the
// BOMs the chain imports (the versions udfx cannot fill are Maven's to
// fill from them).
func (p *pom) effective() (deps, boms []dependency) {
	props := p.properties()
	managed := map[string]dependency{}
	ch := p.chain()
	for i := len(ch) - 1; i >= 0; i-- {
		for _, m := range ch[i].Managed {
			m = m.interpolated(props)
			if m.Scope == "import" {
				boms = append(boms, m)
				continue
			}
			managed[m.key()] = m
		}
	}
	seen := map[string]int{}
	for i := len(ch) - 1; i >= 0; i-- {
		for _, d := range ch[i].Dependencies {
			d = d.interpolated(props)
			if m, ok := managed[d.key()]; ok {
				if d.Version == "" {
					d.Version = m.Version
				}
				if d.Scope == "" {
					d.Scope = m.Scope
				}
				if len(d.Exclusions) == 0 {
					d.Exclusions = m.Exclusions
				}
			}
			if j, ok := seen[d.key()]; ok {
				deps[j] = d
				continue
			}
			seen[d.key()] = len(deps)
			deps = append(deps, d)
		}
	}
	return deps, boms
}

// sourceRoots are the module's main source folders that exist.
func (p *pom) sourceRoots() []string {
	var out []string
	cands := []string{"src/main/java", "src/main/scala"}
	if p.Build.SourceDirectory != "" {
		cands = []string{interpolate(p.Build.SourceDirectory, p.properties())}
	}
	for _, c := range cands {
		d := c
		if !filepath.IsAbs(d) {
			d = filepath.Join(p.dir, filepath.FromSlash(c))
		}
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// providedBySpark are the groups whose jars a Spark job gets from Spark
// itself: declaring them (usually "provided") adds nothing to the
// classpath of a job, and resolving them would download Spark again.
var providedBySpark = []string{"org.apache.spark", "org.scala-lang", "org.apache.hadoop", "org.apache.hive"}

func sparkProvides(d dependency) bool {
	for _, g := range providedBySpark {
		if d.GroupID == g || strings.HasPrefix(d.GroupID, g+".") {
			return true
		}
	}
	return false
}

// coordRE is what a coordinate may hold once interpolated; anything else
// (an unresolved ${...}, markup) is refused before a pom is written.
var coordRE = regexp.MustCompile(`^[A-Za-z0-9_.+\-]+$`)

func resolveMaven(ctx context.Context, modulePom, root string, opts Options) (*Classpath, error) {
	build := rel(root, modulePom)
	own, err := readPom(modulePom)
	if err != nil {
		return nil, &Error{Build: build, Msg: err.Error()}
	}
	r, err := readReactor(root)
	if err != nil {
		return nil, &Error{Build: build, Msg: err.Error()}
	}
	r.poms[own.groupID()+":"+own.ArtifactID] = own
	cp := &Classpath{Build: build}
	var external, boms []dependency
	done := map[string]bool{}
	// The module, then the repository's modules it depends on: their
	// sources go to the compiler, their libraries to Maven.
	todo := []*pom{own}
	for len(todo) > 0 {
		p := todo[0]
		todo = todo[1:]
		if done[p.path] {
			continue
		}
		done[p.path] = true
		r.link(p)
		cp.SourceRoots = append(cp.SourceRoots, p.sourceRoots()...)
		deps, b := p.effective()
		boms = append(boms, b...)
		for _, d := range deps {
			if d.Scope == "test" || d.Scope == "import" {
				continue
			}
			if m, ok := r.poms[d.key()]; ok {
				todo = append(todo, m)
				continue
			}
			if sparkProvides(d) {
				continue
			}
			if d.Scope == "system" {
				return nil, &Error{Build: rel(root, p.path), Msg: fmt.Sprintf("dependency %s has system scope, a jar on one machine's disk; udfx resolves only what a repository can fetch", d.key())}
			}
			external = append(external, d)
		}
	}
	return resolveExternal(ctx, build, cp, external, boms, opts)
}

// resolveExternal adds to cp the jars Maven resolves for the external
// dependencies (and imported boms) a build declares, after checking that
// each coordinate is one udfx can write into its synthetic pom.
func resolveExternal(ctx context.Context, build string, cp *Classpath, external, boms []dependency, opts Options) (*Classpath, error) {
	if len(external) == 0 {
		return cp, nil
	}
	for _, d := range append(slices.Clone(external), boms...) {
		for _, v := range []string{d.GroupID, d.ArtifactID} {
			if !coordRE.MatchString(v) {
				return nil, &Error{Build: build, Msg: fmt.Sprintf("dependency %s: %q is not a Maven coordinate udfx can resolve (a property it cannot read?)", d.key(), v)}
			}
		}
		for _, v := range []string{d.Version, d.Type, d.Classifier} {
			if v != "" && !coordRE.MatchString(v) {
				return nil, &Error{Build: build, Msg: fmt.Sprintf("dependency %s: version, type or classifier %q is not one udfx can resolve (a property it cannot read?)", d.key(), v)}
			}
		}
	}
	if len(boms) == 0 {
		for _, d := range external {
			if d.Version == "" {
				return nil, &Error{Build: build, Msg: fmt.Sprintf("dependency %s has no version udfx can read (managed by a parent pom outside the repository?)", d.key())}
			}
		}
	}
	jars, err := mavenJars(ctx, syntheticPom(external, boms), opts)
	if err != nil {
		return nil, &Error{Build: build, Msg: err.Error()}
	}
	// What a library brings of Spark's own groups (a Scala library's
	// scala-library) is Spark's on a cluster.
	cp.Jars = slices.DeleteFunc(jars, func(j string) bool {
		for _, g := range providedBySpark {
			if strings.Contains(filepath.ToSlash(j), "/"+strings.ReplaceAll(g, ".", "/")+"/") {
				return true
			}
		}
		return false
	})
	return cp, nil
}

// syntheticPom is a pom that declares deps and imports boms, and nothing
// else: no build, no plugins, no repositories.
func syntheticPom(deps, boms []dependency) []byte {
	var b bytes.Buffer
	b.WriteString("<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n" +
		"  <groupId>udfx.buildpath</groupId>\n  <artifactId>classpath</artifactId>\n  <version>0</version>\n  <packaging>pom</packaging>\n")
	if len(boms) > 0 {
		b.WriteString("  <dependencyManagement><dependencies>\n")
		for _, d := range boms {
			writeDep(&b, d, "import")
		}
		b.WriteString("  </dependencies></dependencyManagement>\n")
	}
	b.WriteString("  <dependencies>\n")
	for _, d := range deps {
		writeDep(&b, d, "compile")
	}
	b.WriteString("  </dependencies>\n</project>\n")
	return b.Bytes()
}

func writeDep(b *bytes.Buffer, d dependency, scope string) {
	fmt.Fprintf(b, "    <dependency><groupId>%s</groupId><artifactId>%s</artifactId>", d.GroupID, d.ArtifactID)
	for _, f := range [][2]string{{"version", d.Version}, {"type", d.Type}, {"classifier", d.Classifier}} {
		if f[1] != "" {
			fmt.Fprintf(b, "<%s>%s</%s>", f[0], f[1], f[0])
		}
	}
	fmt.Fprintf(b, "<scope>%s</scope>", scope)
	if len(d.Exclusions) > 0 {
		b.WriteString("<exclusions>")
		for _, e := range d.Exclusions {
			if coordRE.MatchString(e.GroupID) && (e.ArtifactID == "*" || coordRE.MatchString(e.ArtifactID)) || e.GroupID == "*" {
				fmt.Fprintf(b, "<exclusion><groupId>%s</groupId><artifactId>%s</artifactId></exclusion>", e.GroupID, e.ArtifactID)
			}
		}
		b.WriteString("</exclusions>")
	}
	b.WriteString("</dependency>\n")
}

// dependencyPlugin is the maven-dependency-plugin udfx asks for the
// classpath, pinned so that the answer does not depend on what the
// machine has cached.
const dependencyPlugin = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath"

const classpathFile = "classpath.txt"

// MavenRepoEnv names the folder udfx has Maven use as its local
// repository instead of ~/.m2/repository (harness/mavenjar reads it too):
// CI points it at an empty folder, so that no test leans on jars an
// earlier run fetched.
const MavenRepoEnv = "UDFX_MAVEN_REPO"

// mavenJars resolves the synthetic pom's dependencies with Maven, once per
// pom (the cache keeps the answer while its jars are all there).
func mavenJars(ctx context.Context, pomXML []byte, opts Options) ([]string, error) {
	mvn := execpath.Look("mvn", opts.Env("PATH"))
	if mvn == "" {
		return nil, fmt.Errorf("it declares libraries beyond Spark's jars, and resolving them needs Maven (mvn), which is not on PATH")
	}
	cacheDir := opts.CacheDir
	if cacheDir == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache folder for the resolved classpath: %w", err)
		}
		cacheDir = filepath.Join(d, "udfx")
	}
	args := []string{"-B", "-q"}
	repo := opts.Env(MavenRepoEnv)
	if repo != "" {
		abs, err := filepath.Abs(repo)
		if err != nil {
			return nil, err
		}
		repo = abs
		args = append(args, "-Dmaven.repo.local="+repo)
	}
	sum := sha256.Sum256(append(append([]byte{}, pomXML...), repo...))
	key := hex.EncodeToString(sum[:])[:32]
	base := filepath.Join(cacheDir, "buildpath")
	for attempt := 0; attempt < 2; attempt++ {
		dir, _, err := buildcache.Dir(base, key, func(out string) error {
			if err := os.WriteFile(filepath.Join(out, "pom.xml"), pomXML, 0o644); err != nil {
				return err
			}
			cmd := exec.CommandContext(ctx, mvn, append(args, "-f", filepath.Join(out, "pom.xml"), dependencyPlugin,
				"-Dmdep.outputFile="+filepath.Join(out, classpathFile), "-Dmdep.includeScope=runtime")...)
			cmd.Dir = out
			if o, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("Maven could not resolve its libraries (%v): %s", err, lastLines(string(o), 12))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		b, err := os.ReadFile(filepath.Join(dir, classpathFile))
		if err != nil {
			return nil, fmt.Errorf("reading Maven's classpath: %w", err)
		}
		var jars []string
		missing := false
		for _, j := range strings.Split(strings.TrimSpace(string(b)), string(os.PathListSeparator)) {
			if j == "" {
				continue
			}
			if _, err := os.Stat(j); err != nil {
				missing = true
			}
			jars = append(jars, j)
		}
		if !missing {
			return jars, nil
		}
		// A jar was removed from Maven's repository since: resolve again.
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("Maven's classpath names jars that are not on disk")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
