package translate

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
)

// java.time's forms of the same job as SimpleDateFormat (jvmdate.go):
//
//	private static final DateTimeFormatter DAY =
//	    DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);
//	… DAY.format(Instant.ofEpochMilli(ms))
//	… Instant.ofEpochMilli(ms).atZone(ZoneOffset.UTC).format(DAY)
//
// A DateTimeFormatter is immutable, so one held by a constant is the
// same formatter on every row. Its calendar is ISO's proleptic
// Gregorian, its locale the JVM's default (en_US in udfx's JVMs) or
// Locale.US or ENGLISH from withLocale, and what its letters print is
// ir.JVMDateTimeFormatUTC's. Only UTC is translated: an Instant needs
// the formatter's zone, and other zones shift the fields.

// jvmCall splits a call in either JVM language: Java's method_invocation
// or Scala's call_expression of a field; ok is false for anything else.
func (t *tr) jvmCall(n *sitter.Node) (recv *sitter.Node, name string, args []*sitter.Node, ok bool) {
	for n.Kind() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	switch n.Kind() {
	case "method_invocation":
		recv = n.ChildByFieldName("object")
		if recv == nil {
			return nil, "", nil, false
		}
		return recv, t.text(n.ChildByFieldName("name")), namedNonComment(n.ChildByFieldName("arguments")), true
	case "call_expression":
		fn := n.ChildByFieldName("function")
		if fn == nil || fn.Kind() != "field_expression" || n.ChildByFieldName("arguments") == nil {
			return nil, "", nil, false
		}
		return fn.ChildByFieldName("value"), t.text(fn.ChildByFieldName("field")), namedNonComment(n.ChildByFieldName("arguments")), true
	}
	return nil, "", nil, false
}

// isUTCZone: n is ZoneOffset.UTC, or ZoneId.of (ZoneOffset.of) of "UTC",
// "Z", "GMT", "Etc/UTC" or "Etc/GMT", by java.time's classes.
func (t *tr) isUTCZone(n *sitter.Node) bool {
	txt := strings.Join(strings.Fields(t.text(n)), "")
	if cls, field, ok := strings.Cut(txt, ".UTC"); ok && field == "" {
		return t.jdkClass(cls, "java.time", "ZoneOffset")
	}
	recv, name, args, ok := t.jvmCall(n)
	if !ok || name != "of" || len(args) != 1 || !(t.jdkClass(t.text(recv), "java.time", "ZoneId") || t.jdkClass(t.text(recv), "java.time", "ZoneOffset")) {
		return false
	}
	switch t.text(args[0]) {
	case `"UTC"`, `"Z"`, `"GMT"`, `"Etc/UTC"`, `"Etc/GMT"`:
		return true
	}
	return false
}

// isJVMTimeFormatterCall: n builds or configures a DateTimeFormatter
// (DateTimeFormatter.ofPattern, withZone, withLocale), which
// dateTimeFormatter translates.
func (t *tr) isJVMTimeFormatterCall(n *sitter.Node) bool {
	recv, name, _, ok := t.jvmCall(n)
	switch {
	case !ok:
		return false
	case name == "ofPattern":
		return t.jdkClass(t.text(recv), "java.time.format", "DateTimeFormatter")
	case name == "withZone" || name == "withLocale":
		return t.isJVMTimeFormatterCall(recv) || recv.Kind() == "identifier"
	}
	return false
}

// dateTimeFormatter is the binding of a DateTimeFormatter chain n:
// ofPattern(p) of a literal p (with Locale.US or ENGLISH), then
// withZone(UTC) and withLocale(Locale.US or ENGLISH). expr translates
// a name or an argument.
func (t *tr) dateTimeFormatter(n *sitter.Node, expr func(*sitter.Node) *binding) *binding {
	recv, name, args, ok := t.jvmCall(n)
	if !ok {
		b := expr(n)
		if b == nil {
			return nil
		}
		if b.dateFormat == nil || !b.dateFormat.javaTime {
			t.decline(n, t.text(n), "not a DateTimeFormatter udfx translates")
			return nil
		}
		return b
	}
	english := func(l *sitter.Node) bool {
		s := strings.TrimPrefix(t.text(l), "java.util.")
		return s == "Locale.US" || s == "Locale.ENGLISH"
	}
	switch name {
	case "ofPattern":
		if len(args) == 2 && english(args[1]) {
			args = args[:1]
		}
		if len(args) != 1 {
			t.decline(n, t.text(n), "only DateTimeFormatter.ofPattern(pattern) in en_US (the default udfx's JVMs run in, Locale.US or Locale.ENGLISH) is translated: the locale names months and days")
			return nil
		}
		pattern, ok := t.patternArg(args[0], "DateTimeFormatter", ir.ParseDateTimeFormatter, ir.DateTimeFormatterLetters, expr)
		if !ok {
			return nil
		}
		return &binding{e: &ir.Lit{}, dateFormat: &jvmDateFormat{pattern: pattern, javaTime: true}}
	case "withZone", "withLocale":
		f := t.dateTimeFormatter(recv, expr)
		if f == nil {
			return nil
		}
		nf := *f.dateFormat
		switch {
		case len(args) == 1 && name == "withZone" && t.isUTCZone(args[0]):
			nf.utc = true
		case len(args) == 1 && name == "withLocale" && english(args[0]):
		default:
			t.decline(n, name+t.text(n.ChildByFieldName("arguments")), "only withZone(ZoneOffset.UTC) and withLocale(Locale.US) are translated")
			return nil
		}
		return &binding{e: &ir.Lit{}, dateFormat: &nf}
	}
	t.decline(n, "DateTimeFormatter."+name, "only ofPattern, withZone and withLocale are translated")
	return nil
}

// jvmInstant reads a java.time value of epoch milliseconds: of
// Instant.ofEpochMilli(ms) it is ms, not zoned; of .atZone(UTC),
// .atOffset(UTC), or LocalDateTime (ZonedDateTime, OffsetDateTime)
// .ofInstant(that, UTC), ms in UTC. ok is false where n is none of
// these; ms is nil with a decline where it is one that udfx declines.
func (t *tr) jvmInstant(n *sitter.Node, expr func(*sitter.Node) *binding) (ms ir.Expr, zoned, ok bool) {
	recv, name, args, isCall := t.jvmCall(n)
	if !isCall {
		return nil, false, false
	}
	switch {
	case name == "ofEpochMilli" && len(args) == 1 && t.jdkClass(t.text(recv), "java.time", "Instant"):
		b := expr(args[0])
		if b == nil {
			return nil, false, true
		}
		v := t.unboxOrThrow(args[0], *b)
		if v == nil {
			return nil, false, true
		}
		if !ir.IsIntegral(v.Type()) {
			t.decline(args[0], "Instant.ofEpochMilli of a "+typeName(v), "only a long or int of milliseconds is translated")
			return nil, false, true
		}
		return widen(v, tLong), false, true
	case (name == "atZone" || name == "atOffset") && len(args) == 1:
		ms, zoned, ok := t.jvmInstant(recv, expr)
		if !ok || ms == nil {
			return nil, false, ok
		}
		if zoned {
			t.decline(n, name+" of a zoned time", "only an Instant's "+name+"(UTC) is translated")
			return nil, false, true
		}
		if !t.isUTCZone(args[0]) {
			t.decline(n, name+"("+t.text(args[0])+")", "only UTC (ZoneOffset.UTC, ZoneId.of(\"UTC\")) is translated")
			return nil, false, true
		}
		return ms, true, true
	case name == "ofInstant" && len(args) == 2 && (t.jdkClass(t.text(recv), "java.time", "LocalDateTime") ||
		t.jdkClass(t.text(recv), "java.time", "ZonedDateTime") || t.jdkClass(t.text(recv), "java.time", "OffsetDateTime")):
		ms, zoned, ok := t.jvmInstant(args[0], expr)
		if !ok || ms == nil {
			return nil, false, ok
		}
		if zoned {
			t.decline(n, t.text(n), "only ofInstant of an Instant is translated")
			return nil, false, true
		}
		if !t.isUTCZone(args[1]) {
			t.decline(n, t.text(n), "only UTC (ZoneOffset.UTC, ZoneId.of(\"UTC\")) is translated")
			return nil, false, true
		}
		return ms, true, true
	}
	return nil, false, false
}

// jvmTimeFormat translates n, a call named format: F.format(T) of a
// DateTimeFormatter F (its receiver, recv) and a java.time value T, or
// T.format(F). handled is false where n is neither.
func (t *tr) jvmTimeFormat(n, recv *sitter.Node, args []*sitter.Node, expr func(*sitter.Node) *binding) (b *binding, handled bool) {
	if len(args) != 1 {
		return nil, false
	}
	formatter, temporal := recv, args[0]
	if _, _, _, isCall := t.jvmCall(recv); isCall && !t.isJVMTimeFormatterCall(recv) {
		formatter, temporal = args[0], recv
	}
	if _, _, ok := t.jvmInstantShape(temporal); !ok {
		return nil, false
	}
	f := t.dateTimeFormatter(formatter, expr)
	if f == nil {
		return nil, true
	}
	ms, zoned, _ := t.jvmInstant(temporal, expr)
	if ms == nil {
		return nil, true
	}
	if !zoned && !f.dateFormat.utc {
		t.decline(n, "DateTimeFormatter.format of an Instant without withZone", "java.time throws UnsupportedTemporalTypeException: an Instant has no date without a zone; give it withZone(ZoneOffset.UTC)")
		return nil, true
	}
	return lit(&ir.Call{Fn: ir.JVMDateTimeFormatUTC, Args: []ir.Expr{ms, &ir.Lit{T: tString, Value: f.dateFormat.pattern}}, T: tString}), true
}

// jvmInstantShape: n has the shape jvmInstant reads (its arguments not
// yet translated).
func (t *tr) jvmInstantShape(n *sitter.Node) (recv *sitter.Node, name string, ok bool) {
	recv, name, args, isCall := t.jvmCall(n)
	if !isCall {
		return nil, "", false
	}
	switch {
	case name == "ofEpochMilli" && len(args) == 1 && t.jdkClass(t.text(recv), "java.time", "Instant"):
		return recv, name, true
	case (name == "atZone" || name == "atOffset") && len(args) == 1:
		_, _, ok := t.jvmInstantShape(recv)
		return recv, name, ok
	case name == "ofInstant" && len(args) == 2:
		_, _, ok := t.jvmInstantShape(args[0])
		return recv, name, ok
	}
	return nil, "", false
}
