package jvm

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/scala"
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
	if u == nil || u.Language != udf.Scala {
		return nil
	}
	l := u.Lift
	if l == nil || len(l.Captures) > 0 {
		return nil
	}
	consts, why := factoryConsts(u)
	if why != "" {
		return nil
	}
	var b strings.Builder
	for _, p := range l.Packages {
		b.WriteString(p + "\n")
	}
	for _, i := range l.Imports {
		b.WriteString(i + "\n")
	}
	b.WriteString("\nobject " + LiftedObject(u) + " {\n")
	if l.Object != "" {
		b.WriteString("  import " + l.Object + "._\n")
	}
	for _, c := range append(append([]string{}, l.Consts...), consts...) {
		b.WriteString("  " + c + "\n")
	}
	b.WriteString("  val " + u.Name + " = " + l.Expr + "\n}\n")
	return []byte(b.String())
}

// factoryConsts are, for a UDF a def makes (udf.Factory), a val per
// parameter of the literal the calls give it, with the parameter's
// declared type: passing the literal to the parameter converts it as
// that val's type does (2 to a Double parameter is 2.0). why says what
// is missing when no such vals can be written.
func factoryConsts(u *udf.UDF) (consts []string, why string) {
	fac := u.Factory
	switch {
	case fac == nil:
		return nil, ""
	case fac.Problem != "":
		return nil, fac.Problem
	case len(fac.Types) != len(fac.Params):
		return nil, "its parameters' types are not known"
	case len(fac.Args) != len(fac.Params):
		return nil, fmt.Sprintf("%d literals for its %d parameters", len(fac.Args), len(fac.Params))
	}
	for i, a := range fac.Args {
		// A record's arguments (verify's recordFactory) are untrusted:
		// each must be the parameter scan found, given one literal.
		if a.Param != fac.Params[i] {
			return nil, fmt.Sprintf("argument %d is for %q, not its parameter %s", i+1, a.Param, fac.Params[i])
		}
		if !scala.PlainLiteral(a.Literal) {
			return nil, fmt.Sprintf("%s is given %q, which is not one Scala literal", a.Param, a.Literal)
		}
		consts = append(consts, "val "+a.Param+": "+fac.Types[i]+" = "+a.Literal)
	}
	return consts, ""
}

// LiftedObject is the name of the object that holds u: one per UDF and
// file, since Spark's engine loads the lifted objects of several UDFs of
// one package into one class loader, where a shared name would let the
// first one shadow the others.
func LiftedObject(u *udf.UDF) string {
	h := sha256.Sum256([]byte(u.File))
	return "UdfxLifted_" + u.Name + "_" + hex.EncodeToString(h[:4])
}

// Lifted reports whether u is compiled with a lifted holder: an object of
// its own (Scala) or a static field inserted into its class (Java).
func Lifted(u *udf.UDF) bool {
	if _, why := factoryConsts(u); why != "" {
		return false
	}
	return u.Lift != nil && len(u.Lift.Captures) == 0 && (u.Language == udf.Scala || u.Lift.Field != "")
}

// liftedJava is the Java file's source src with the static fields that
// hold its lifted lambdas inserted into their classes (udf.Lift.Fields,
// u's among them), or nil when u is not a lifted Java lambda or src is no
// longer the source the scan read. Each field goes on the line of its
// class's closing brace, so that the lines before it keep their numbers
// in the compiler's and the JVM's messages.
func liftedJava(u *udf.UDF, src []byte) []byte {
	if u == nil || u.Language != udf.Java || !Lifted(u) {
		return nil
	}
	fields := u.Lift.Fields
	if len(fields) == 0 {
		fields = []udf.JavaField{{Decl: u.Lift.Field, At: u.Lift.At}}
	}
	out := make([]byte, 0, len(src)+256)
	prev := 0
	for _, f := range fields {
		if f.At < prev || f.At >= len(src) || src[f.At] != '}' {
			return nil
		}
		out = append(out, src[prev:f.At]...)
		out = append(out, ' ')
		out = append(out, f.Decl...)
		out = append(out, ' ')
		prev = f.At
	}
	return append(out, src[prev:]...)
}
