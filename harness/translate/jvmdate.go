package translate

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
)

// Real JVM UDFs format epoch milliseconds with a local formatter:
//
//	SimpleDateFormat fmt = new SimpleDateFormat("yyyy-MM-dd");
//	fmt.setTimeZone(TimeZone.getTimeZone("UTC"));
//	return fmt.format(new Date(millis));
//
// The result depends on the formatter's time zone and locale. Without
// setTimeZone it is the executor JVM's default zone, which udfx cannot
// know, so only UTC is translated. The locale is the JVM's default (en_US
// in udfx's runner and Spark session, as for toUpperCase), or Locale.US
// or Locale.ENGLISH named in the constructor; it decides the names of
// months and weekdays and the calendar. What the pattern letters print
// is ir.JVMDateFormatUTC's (docs/semantics.md).

// jvmDateFormat is a local SimpleDateFormat: its literal pattern, and
// whether setTimeZone (withZone) gave it UTC.
type jvmDateFormat struct {
	pattern string
	utc     bool
	// javaTime: a java.time DateTimeFormatter (jvmtime.go), not a
	// SimpleDateFormat.
	javaTime bool
}

// jvmUTCZones are the time zone IDs TimeZone.getTimeZone reads as UTC.
var jvmUTCZones = map[string]bool{"UTC": true, "GMT": true, "Etc/UTC": true, "Etc/GMT": true}

// jdkClass reports whether the type name ty (as the source writes it)
// is the JDK's pkg.class: written qualified, or imported by name or with
// its package, and not a type the file defines.
func (t *tr) jdkClass(ty, pkg, class string) bool {
	if ty == pkg+"."+class {
		return true
	}
	if ty != class || t.definesType(class) {
		return false
	}
	// A class of the same name imported from another package shadows
	// the JDK's, even beside the JDK package's wildcard.
	imported, other := false, false
	var walk func(x *sitter.Node)
	walk = func(x *sitter.Node) {
		if x.Kind() == "import_declaration" {
			s := strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimPrefix(t.text(x), "import"), ";")), "")
			switch {
			case s == pkg+"."+class, s == pkg+".*", s == pkg+"._":
				imported = true
			case strings.HasPrefix(s, pkg+".{") && strings.HasSuffix(s, "}"):
				for _, name := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(s, pkg+".{"), "}"), ",") {
					if name == class || name == "_" {
						imported = true
					}
				}
			case strings.HasSuffix(s, "."+class), strings.Contains(s, "{") && (strings.Contains(s, "{"+class+",") ||
				strings.Contains(s, ","+class+",") || strings.Contains(s, ","+class+"}") || strings.Contains(s, "{"+class+"}") || strings.Contains(s, "=>"+class)):
				other = true
			}
			return
		}
		for i := uint(0); i < x.NamedChildCount(); i++ {
			walk(x.NamedChild(i))
		}
	}
	walk(t.root)
	return imported && !other
}

// creation splits `new T(args)` (Java's object_creation_expression,
// Scala's instance_expression) into T's text and the arguments; ok is
// false for any other node.
func (t *tr) creation(n *sitter.Node) (ty string, args []*sitter.Node, ok bool) {
	for n.Kind() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	switch n.Kind() {
	case "object_creation_expression":
		ty = t.text(n.ChildByFieldName("type"))
	case "instance_expression":
		if n.NamedChildCount() == 0 {
			return "", nil, false
		}
		ty = t.text(n.NamedChild(0))
	default:
		return "", nil, false
	}
	return ty, namedNonComment(n.ChildByFieldName("arguments")), true
}

// isNewDateFormat: n creates a java.text.SimpleDateFormat.
func (t *tr) isNewDateFormat(n *sitter.Node) bool {
	ty, _, ok := t.creation(n)
	return ok && t.jdkClass(ty, "java.text", "SimpleDateFormat")
}

// newDateFormat is the binding of `new SimpleDateFormat(p)`, or of
// `new SimpleDateFormat(p, Locale.US)` (ENGLISH): p a literal pattern
// ir.ParseSimpleDateFormat accepts. expr translates an argument.
func (t *tr) newDateFormat(n *sitter.Node, expr func(*sitter.Node) *binding) *binding {
	_, args, _ := t.creation(n)
	if len(args) == 2 {
		switch strings.TrimPrefix(t.text(args[1]), "java.util.") {
		case "Locale.US", "Locale.ENGLISH":
			args = args[:1]
		default:
			t.decline(args[1], "SimpleDateFormat in the locale "+t.text(args[1]), "only en_US (the default udfx's JVMs run in, Locale.US or Locale.ENGLISH) is translated: the locale names months and days and picks the calendar")
			return nil
		}
	}
	if len(args) != 1 {
		t.decline(n, t.text(n), "only new SimpleDateFormat(pattern) is translated")
		return nil
	}
	pattern, ok := t.patternArg(args[0], "SimpleDateFormat", ir.ParseSimpleDateFormat, ir.SimpleDateFormatLetters, expr)
	if !ok {
		return nil
	}
	return &binding{e: &ir.Lit{}, dateFormat: &jvmDateFormat{pattern: pattern}}
}

// patternArg is the literal pattern arg of a formatter (what names it)
// that parse accepts, or false with a decline naming the letters
// rendered.
func (t *tr) patternArg(arg *sitter.Node, what string, parse func(string) ([]ir.DateField, error), letters string, expr func(*sitter.Node) *binding) (string, bool) {
	p := expr(arg)
	if p == nil {
		return "", false
	}
	pattern, ok := t.strLitOf(p)
	if !ok {
		t.decline(arg, what+" pattern "+t.text(arg), "only a literal pattern is translated")
		return "", false
	}
	if _, err := parse(pattern); err != nil {
		t.decline(arg, what+" pattern "+t.text(arg), err.Error()+" is not translated (only "+
			strings.Join(strings.Split(letters, ""), " ")+", quoted and other text)")
		return "", false
	}
	return pattern, true
}

// formatterName wraps expr, which translates a node, for the date
// formatters: a name is its binding (a local formatter, or a constant),
// where expr declines a formatter read as a value.
func (t *tr) formatterName(e env, expr func(*sitter.Node) *binding) func(*sitter.Node) *binding {
	return func(x *sitter.Node) *binding {
		if x.Kind() == "identifier" {
			if b, ok := e[t.text(x)]; ok && b.dateFormat != nil {
				return &b
			} else if !ok {
				return t.constant(x)
			}
		}
		return expr(x)
	}
}

// dateFormatStatement translates a statement calling method on f, a
// local SimpleDateFormat: setTimeZone(TimeZone.getTimeZone("UTC")) and
// setLenient(b) (which only parsing reads) give its new binding.
func (t *tr) dateFormatStatement(n *sitter.Node, f binding, method string, args []*sitter.Node) *binding {
	switch {
	case method == "setLenient" && len(args) == 1 && (t.text(args[0]) == "true" || t.text(args[0]) == "false"):
		return &f
	case method == "setTimeZone" && len(args) == 1:
		if ty, zone, ok := t.getTimeZone(args[0]); ok && t.jdkClass(ty, "java.util", "TimeZone") && jvmUTCZones[zone] {
			nf := *f.dateFormat
			nf.utc = true
			f.dateFormat = &nf
			return &f
		}
		t.decline(args[0], "setTimeZone("+t.text(args[0])+")", "only TimeZone.getTimeZone(\"UTC\") (or \"GMT\") is translated")
		return nil
	}
	t.decline(n, "SimpleDateFormat."+method, "only setTimeZone, setLenient and format(new Date(ms)) are translated")
	return nil
}

// getTimeZone reads TimeZone.getTimeZone("ID"): the class as written and
// the ID.
func (t *tr) getTimeZone(n *sitter.Node) (ty, zone string, ok bool) {
	var fn, args *sitter.Node
	switch n.Kind() {
	case "method_invocation":
		fn, args = n.ChildByFieldName("object"), n.ChildByFieldName("arguments")
		if fn == nil || t.text(n.ChildByFieldName("name")) != "getTimeZone" {
			return "", "", false
		}
		ty = t.text(fn)
	case "call_expression":
		fn, args = n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
		if fn == nil || fn.Kind() != "field_expression" || t.text(fn.ChildByFieldName("field")) != "getTimeZone" {
			return "", "", false
		}
		ty = t.text(fn.ChildByFieldName("value"))
	default:
		return "", "", false
	}
	as := namedNonComment(args)
	if len(as) != 1 {
		return "", "", false
	}
	s := t.text(as[0])
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' || strings.ContainsAny(s[1:len(s)-1], `"\`) {
		return "", "", false
	}
	return ty, s[1 : len(s)-1], true
}

// dateFormatFormat translates f.format(new Date(ms)) of a local
// SimpleDateFormat f: ms a long (an int widens; a null Long throws
// NullPointerException).
func (t *tr) dateFormatFormat(n *sitter.Node, f binding, args []*sitter.Node, expr func(*sitter.Node) *binding) *binding {
	if !f.dateFormat.utc {
		t.decline(n, "SimpleDateFormat.format without setTimeZone", "the date is the one in the executor JVM's default time zone, which udfx cannot know; set it with setTimeZone(TimeZone.getTimeZone(\"UTC\"))")
		return nil
	}
	var dateArgs []*sitter.Node
	ty, dateArgs, isNew := "", nil, false
	if len(args) == 1 {
		ty, dateArgs, isNew = t.creation(args[0])
	}
	if !isNew || !t.jdkClass(ty, "java.util", "Date") || len(dateArgs) != 1 {
		t.decline(n, "SimpleDateFormat.format of "+t.text(n.ChildByFieldName("arguments")), "only format(new Date(ms)) of java.util.Date is translated")
		return nil
	}
	b := expr(dateArgs[0])
	if b == nil {
		return nil
	}
	ms := t.unboxOrThrow(dateArgs[0], *b)
	if ms == nil {
		return nil
	}
	if !ir.IsIntegral(ms.Type()) {
		t.decline(dateArgs[0], "new Date of a "+typeName(ms), "only a long or int of milliseconds is translated")
		return nil
	}
	return lit(&ir.Call{Fn: ir.JVMDateFormatUTC, Args: []ir.Expr{widen(ms, tLong), &ir.Lit{T: tString, Value: f.dateFormat.pattern}}, T: tString})
}

// dateFormatCall translates a call of method on obj where obj is a
// local SimpleDateFormat or new SimpleDateFormat(…), in Java or Scala:
// format(new Date(ms)), any other method declined; handled is false for
// any other receiver.
func (t *tr) dateFormatCall(n, obj *sitter.Node, method string, args []*sitter.Node, e env, expr func(*sitter.Node) *binding) (b *binding, handled bool) {
	if obj == nil || !(obj.Kind() == "identifier" && e[t.text(obj)].dateFormat != nil || t.isNewDateFormat(obj)) {
		return nil, false
	}
	f := e[t.text(obj)]
	if obj.Kind() != "identifier" {
		nf := t.newDateFormat(obj, expr)
		if nf == nil {
			return nil, true
		}
		f = *nf
	}
	if method != "format" {
		return t.dateFormatAsValue(obj), true
	}
	return t.dateFormatFormat(n, f, args, expr), true
}

// dateFormatAsValue declines a date formatter (a local SimpleDateFormat,
// a DateTimeFormatter) read other than by the calls above.
func (t *tr) dateFormatAsValue(n *sitter.Node) *binding {
	t.decline(n, "date formatter "+t.text(n)+" used as a value", "only format (and setTimeZone, setLenient, withZone, withLocale) on a formatter are translated")
	return nil
}
