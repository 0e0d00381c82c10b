package jvm

import (
	"crypto/sha256"
	"encoding/hex"
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
	if u == nil || u.Language != udf.Scala {
		return nil
	}
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
	b.WriteString("\nobject " + LiftedObject(u) + " {\n")
	if l.Object != "" {
		b.WriteString("  import " + l.Object + "._\n")
	}
	for _, c := range l.Consts {
		b.WriteString("  " + c + "\n")
	}
	b.WriteString("  val " + u.Name + " = " + l.Expr + "\n}\n")
	return []byte(b.String())
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
