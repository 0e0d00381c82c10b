package jvm

import (
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// LiftedFile is the file of the object that holds a UDF defined inside a
// method.
const LiftedFile = "UdfxLifted.scala"

// LiftedSource is that object's source for u (udf.Lift), or nil when u is
// not defined inside a method. It has the file's package and the imports
// in scope where the UDF is defined; the enclosing objects' members come
// in by a wildcard import inside the object, so a name that both they and
// an explicit import give is ambiguous to scalac rather than bound
// otherwise than in the method.
func LiftedSource(u *udf.UDF) []byte {
	l := u.Lift
	if l == nil || len(l.Captures) > 0 {
		return nil
	}
	var b strings.Builder
	for _, p := range l.Packages {
		b.WriteString(p + "\n")
	}
	for _, i := range l.Imports {
		b.WriteString(i + "\n")
	}
	b.WriteString("\nobject UdfxLifted {\n")
	if l.Object != "" {
		b.WriteString("  import " + l.Object + "._\n")
	}
	b.WriteString("  val " + u.Name + " = " + l.Expr + "\n}\n")
	return []byte(b.String())
}
