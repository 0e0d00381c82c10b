package sparkversion

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
)

type pomElem struct {
	text       string
	start, end int // offsets of the element, start tag to end tag
}

type pomDep struct {
	group, artifact, version pomElem
}

// ParsePom reads org.apache.spark dependencies of a Maven pom, in
// <dependencies> and <dependencyManagement>, with a literal <version> or a
// ${property} defined in the same pom's <properties>. A property a
// <profile> redefines has no one value without knowing which profiles
// are active, so it declares nothing; so does one defined only in a parent
// pom, which Maven would have to resolve.
func ParsePom(rel string, data []byte) []Declared {
	dec := xml.NewDecoder(bytes.NewReader(data))
	// Versions are ASCII, so a pom in another declared encoding reads
	// well enough byte for byte.
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	li := newLineIndex(data)

	var (
		stack      []string
		starts     []int
		text       strings.Builder
		props      = map[string]pomElem{}
		overridden = map[string]bool{}
		deps       []pomDep
		cur        *pomDep
	)
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil // not XML we can trust; declare nothing
		}
		switch t := tok.(type) {
		case xml.StartElement:
			start := before
			for start < len(data) && data[start] != '<' {
				start++
			}
			stack = append(stack, t.Name.Local)
			starts = append(starts, start)
			text.Reset()
			if isDepPath(stack) {
				deps = append(deps, pomDep{})
				cur = &deps[len(deps)-1]
			}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			if len(stack) == 0 {
				return nil
			}
			el := pomElem{text: strings.TrimSpace(text.String()), start: starts[len(starts)-1], end: int(dec.InputOffset())}
			path := strings.Join(stack, "/")
			name := stack[len(stack)-1]
			switch {
			case len(stack) == 3 && path == "project/properties/"+name:
				props[name] = el
			case len(stack) == 5 && path == "project/profiles/profile/properties/"+name:
				overridden[name] = true
			case cur != nil && len(stack) >= 2 && isDepPath(stack[:len(stack)-1]):
				switch name {
				case "groupId":
					cur.group = el
				case "artifactId":
					cur.artifact = el
				case "version":
					cur.version = el
				}
			}
			if isDepPath(stack) {
				cur = nil
			}
			stack = stack[:len(stack)-1]
			starts = starts[:len(starts)-1]
			text.Reset()
		}
	}
	var out []Declared
	for _, d := range deps {
		if d.group.text != "org.apache.spark" || !strings.HasPrefix(d.artifact.text, "spark-") {
			continue
		}
		v := d.version
		if strings.HasPrefix(v.text, "${") && strings.HasSuffix(v.text, "}") {
			name := v.text[2 : len(v.text)-1]
			p, ok := props[name]
			if !ok || overridden[name] {
				continue
			}
			v = p
		}
		if v.end <= v.start || v.end > len(data) {
			continue
		}
		if decl, ok := jvmDecl(v.text, rel, li.line(v.start), string(data[v.start:v.end])); ok {
			out = append(out, decl)
		}
	}
	sortDecls(out)
	return dedupe(out)
}

func isDepPath(stack []string) bool {
	p := strings.Join(stack, "/")
	return p == "project/dependencies/dependency" ||
		p == "project/dependencyManagement/dependencies/dependency"
}
