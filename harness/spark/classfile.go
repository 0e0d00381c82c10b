package spark

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// classInfo is what udfx reads from a compiled class to find the UDF in
// it: the class's binary name, what it implements, its members.
type classInfo struct {
	Name       string // binary name, dots: "examples.temperature.ToFahrenheit"
	Super      string
	Interfaces []string
	Fields     []member
	Methods    []member
}

// hasConstructor reports whether the class declares an instance
// constructor; a Scala object's mirror class declares none.
func (c *classInfo) hasConstructor() bool {
	for _, m := range c.Methods {
		if m.Name == "<init>" {
			return true
		}
	}
	return false
}

type member struct {
	Name, Desc string
	Static     bool
}

const accStatic = 0x0008

var errClassFile = errors.New("not a class file")

// parseClass reads the parts of a JVM class file udfx needs (JVMS §4).
func parseClass(b []byte) (*classInfo, error) {
	r := &classReader{b: b}
	if r.u4() != 0xCAFEBABE {
		return nil, errClassFile
	}
	r.u2()
	r.u2()
	n := int(r.u2())
	utf := make(map[int]string)
	classRef := make(map[int]int)
	for i := 1; i < n && r.err == nil; i++ {
		tag := r.u1()
		switch tag {
		case 1: // Utf8 (modified UTF-8; class and member names are ASCII in practice)
			l := int(r.u2())
			utf[i] = string(r.bytes(l))
		case 7: // Class
			classRef[i] = int(r.u2())
		case 8, 16, 19, 20: // String, MethodType, Module, Package
			r.u2()
		case 3, 4, 9, 10, 11, 12, 17, 18: // Integer, Float, refs, NameAndType, Dynamic, InvokeDynamic
			r.u4()
		case 5, 6: // Long, Double take two slots
			r.u4()
			r.u4()
			i++
		case 15: // MethodHandle
			r.u1()
			r.u2()
		default:
			return nil, fmt.Errorf("class file: constant pool tag %d", tag)
		}
	}
	className := func(i int) string { return strings.ReplaceAll(utf[classRef[i]], "/", ".") }
	c := &classInfo{}
	r.u2() // access flags
	c.Name = className(int(r.u2()))
	c.Super = className(int(r.u2()))
	for k := int(r.u2()); k > 0 && r.err == nil; k-- {
		c.Interfaces = append(c.Interfaces, className(int(r.u2())))
	}
	members := func() []member {
		var ms []member
		for k := int(r.u2()); k > 0 && r.err == nil; k-- {
			acc := r.u2()
			m := member{Name: utf[int(r.u2())], Desc: utf[int(r.u2())], Static: acc&accStatic != 0}
			for a := int(r.u2()); a > 0 && r.err == nil; a-- {
				r.u2()
				r.bytes(int(r.u4()))
			}
			ms = append(ms, m)
		}
		return ms
	}
	c.Fields = members()
	c.Methods = members()
	if r.err != nil {
		return nil, r.err
	}
	return c, nil
}

type classReader struct {
	b   []byte
	off int
	err error
}

func (r *classReader) bytes(n int) []byte {
	if r.err != nil || n < 0 || r.off+n > len(r.b) {
		r.err = errors.New("class file: truncated")
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

func (r *classReader) u1() uint8 {
	b := r.bytes(1)
	if b == nil {
		return 0
	}
	return b[0]
}

func (r *classReader) u2() uint16 {
	b := r.bytes(2)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint16(b)
}

func (r *classReader) u4() uint32 {
	b := r.bytes(4)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint32(b)
}

// readClasses parses every class file under dir, sorted by name.
func readClasses(dir string) ([]*classInfo, error) {
	var out []*classInfo
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".class") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		c, err := parseClass(b)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading compiled classes: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// simpleName is the last part of a binary name: "ToFahrenheit" for
// "a.b.ToFahrenheit" and for "a.b.Outer$ToFahrenheit".
func simpleName(binary string) string {
	s := binary[strings.LastIndexByte(binary, '.')+1:]
	if i := strings.LastIndexByte(strings.TrimSuffix(s, "$"), '$'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// sourceRef is how Scala or Java source names a class or object:
// "a.b.Outer$Inner" is a.b.Outer.Inner, "a.b.Obj$" (a Scala object's
// class) is a.b.Obj; "_root_." keeps a user package named like something
// in scope from shadowing it in Scala.
func sourceRef(binary string, scala bool) string {
	s := strings.ReplaceAll(strings.TrimSuffix(binary, "$"), "$", ".")
	if scala {
		return "_root_." + s
	}
	return s
}

func (c *classInfo) isModule() bool {
	if !strings.HasSuffix(c.Name, "$") {
		return false
	}
	for _, f := range c.Fields {
		if f.Name == "MODULE$" && f.Static {
			return true
		}
	}
	return false
}
