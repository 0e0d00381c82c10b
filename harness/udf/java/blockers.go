package java

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// pureStatic lists the static methods known to be pure, by class; an
// empty set means every method of the class except those in impureStatic.
var pureStatic = map[string]map[string]bool{
	"Math":       {},
	"StrictMath": {},
	"Double":     {},
	"Float":      {},
	"Integer":    {},
	"Long":       {},
	"Short":      {},
	"Byte":       {},
	"Boolean":    {},
	"Character":  {},
	"String":     {"valueOf": true, "copyValueOf": true, "join": true},
	"Objects":    {"equals": true, "isNull": true, "nonNull": true, "hash": true, "hashCode": true, "toString": true, "compare": true, "requireNonNullElse": true},
	"Optional":   {"of": true, "ofNullable": true, "empty": true},
	"BigDecimal": {"valueOf": true},
	"BigInteger": {"valueOf": true},
	// The date formatting the translator reads (jvmdate.go, jvmtime.go).
	"TimeZone":          {"getTimeZone": true},
	"Instant":           {"ofEpochMilli": true},
	"DateTimeFormatter": {"ofPattern": true},
	"ZoneId":            {"of": true},
	"ZoneOffset":        {"of": true},
	"LocalDateTime":     {"ofInstant": true},
	"ZonedDateTime":     {"ofInstant": true},
	"OffsetDateTime":    {"ofInstant": true},
}

// impureStatic are the exceptions to an all-pure class: random numbers,
// and the boxes' readers of system properties.
var impureStatic = map[string]bool{
	"Math.random": true, "StrictMath.random": true,
	"Integer.getInteger": true, "Long.getLong": true, "Boolean.getBoolean": true,
}

// pureInstance are instance methods known to be pure whatever the
// receiver: String, boxing/unboxing and Object basics.
var pureInstance = setOf(
	"length", "substring", "indexOf", "lastIndexOf", "contains", "startsWith", "endsWith",
	"replace", "trim", "strip", "stripLeading", "stripTrailing", "toUpperCase", "toLowerCase",
	"split", "concat", "isEmpty", "isBlank", "charAt", "equals", "equalsIgnoreCase",
	"compareTo", "compareToIgnoreCase", "valueOf", "hashCode", "toString",
	"doubleValue", "floatValue", "intValue", "longValue", "shortValue", "byteValue",
	"booleanValue", "charValue", "isNaN", "isInfinite",
	"orElse", "isPresent",
	// Hadoop Writables unbox with get().
	"get",
	// A date formatter's setup and use, and java.time's zoning.
	"format", "setTimeZone", "setLenient", "withZone", "withLocale", "atZone", "atOffset",
)

// optionalMethods are pure on an Optional built in the same chain.
var optionalMethods = setOf("map", "flatMap", "filter", "orElse", "orElseGet", "isPresent", "isEmpty", "get", "or")

// streamSources start a stream pipeline, a loop over elements.
var streamSources = map[string]map[string]bool{
	"Stream":        {},
	"IntStream":     {},
	"LongStream":    {},
	"DoubleStream":  {},
	"StreamSupport": {},
	"Arrays":        {"stream": true},
}

var randomMethods = setOf("nextInt", "nextDouble", "nextLong", "nextFloat", "nextGaussian", "nextBoolean", "nextBytes", "ints", "longs", "doubles")

var logLevels = setOf("trace", "debug", "info", "warn", "warning", "error", "fatal", "severe", "fine", "log")

// Simple names of classes whose use is I/O, network or nondeterminism
// when no import says otherwise.
var (
	ioClasses = setOf("File", "FileReader", "FileWriter", "FileInputStream", "FileOutputStream",
		"BufferedReader", "BufferedWriter", "InputStreamReader", "OutputStreamWriter", "PrintWriter",
		"PrintStream", "RandomAccessFile", "Files", "Paths", "Path", "FileSystems",
		"Logger", "LoggerFactory", "LogManager", "Log", "LogFactory")
	networkClasses = setOf("URL", "URLConnection", "HttpURLConnection", "Socket", "ServerSocket",
		"DatagramSocket", "InetAddress", "HttpClient", "HttpRequest")
	randomClasses = setOf("Random", "SecureRandom", "ThreadLocalRandom", "SplittableRandom")
	// pureConstructors build values without side effects.
	pureConstructors = setOf("Double", "Float", "Integer", "Long", "Short", "Byte", "Boolean",
		"Character", "String", "BigDecimal", "BigInteger",
		"Text", "DoubleWritable", "IntWritable", "LongWritable", "BooleanWritable", "FloatWritable",
		"ShortWritable", "ByteWritable", "BytesWritable",
		// A formatter local to the call, and the Date of a long (a Date
		// of no argument is the clock).
		"SimpleDateFormat", "Date")
	// staticFieldExempt are classes whose static fields are constants.
	staticFieldExempt = setOf("System", "Math", "StrictMath", "Double", "Float", "Integer", "Long",
		"Short", "Byte", "Character", "Boolean", "String", "DataTypes", "BigDecimal", "BigInteger")
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// fieldInfo is what matters about a field for mutable state.
type fieldInfo struct {
	final bool
}

// bodyQuery finds the constructs a body scan judges.
var bodyQuery = mustQuery(`
(for_statement) @n
(enhanced_for_statement) @n
(while_statement) @n
(do_statement) @n
(try_statement) @n
(try_with_resources_statement) @n
(method_invocation) @n
(object_creation_expression) @n
(method_reference) @n
(field_access) @n
(assignment_expression left: (field_access) @n)
(update_expression (field_access) @n)
`)

// Pattern indexes of bodyQuery.
const (
	patFor = iota
	patEnhancedFor
	patWhile
	patDo
	patTry
	patTryResources
	patCall
	patNew
	patRef
	patFieldAccess
	patAssignField
	patUpdateField
)

// scan finds the blockers in a UDF body and in the methods of the file it
// calls.
type scan struct {
	fl      *file
	out     []udf.Blocker
	seen    map[string]bool
	visited map[uintptr]bool
	queue   []*sitter.Node
	// root is being scanned; fields are those of its classes, locals
	// its parameters and local variables (computed when first needed).
	root   *sitter.Node
	fields map[string]fieldInfo
	locals map[string]bool
}

func (b *builder) blockers(e *entry) []udf.Blocker {
	if e.body == nil {
		return nil
	}
	s := &scan{fl: b.fl, seen: map[string]bool{}, visited: map[uintptr]bool{}, queue: []*sitter.Node{e.body}}
	for len(s.queue) > 0 {
		root := s.queue[0]
		s.queue = s.queue[1:]
		if s.visited[root.Id()] {
			continue
		}
		s.visited[root.Id()] = true
		s.scanRoot(root)
	}
	return s.out
}

func (s *scan) add(kind udf.BlockerKind, detail string, n *sitter.Node) {
	span := s.fl.src.Span(n)
	key := string(kind) + "\x00" + detail + "\x00" + strconv.Itoa(span.Start.Line)
	if s.seen[key] {
		return
	}
	s.seen[key] = true
	s.out = append(s.out, udf.Blocker{Kind: kind, Detail: detail, Span: span})
}

func (s *scan) enqueue(ms []*sitter.Node) {
	s.queue = append(s.queue, ms...)
}

// isLocal says whether name is a parameter or local variable in scope
// of the root: declared in it or in the function enclosing it.
func (s *scan) isLocal(name string) bool {
	if s.locals == nil {
		s.locals = declaredNames(s.fl.outermostFunction(s.root), s.fl)
		for k := range declaredNames(s.root, s.fl) {
			s.locals[k] = true
		}
	}
	return s.locals[name]
}

// scanRoot scans one method or lambda.
func (s *scan) scanRoot(root *sitter.Node) {
	s.root, s.locals = root, nil
	s.fields = s.fl.fieldsAround(root)
	ms := runQuery(s.fl.qc, bodyQuery, root, s.fl.src.Src)
	writes := map[uintptr]bool{}
	for _, m := range ms {
		if m.pattern == patAssignField || m.pattern == patUpdateField {
			writes[m.node.Id()] = true
		}
	}
	for _, m := range ms {
		n := m.node
		switch m.pattern {
		case patFor:
			s.add(udf.BlockerLoop, "for loop", n)
		case patEnhancedFor:
			s.add(udf.BlockerLoop, "enhanced for loop", n)
		case patWhile:
			s.add(udf.BlockerLoop, "while loop", n)
		case patDo:
			s.add(udf.BlockerLoop, "do-while loop", n)
		case patTry:
			if childOfKind(n, "catch_clause") != nil {
				s.add(udf.BlockerExceptionHandler, "try/catch", n)
			} else {
				s.add(udf.BlockerExceptionHandler, "try/finally", n)
			}
		case patTryResources:
			s.add(udf.BlockerExceptionHandler, "try-with-resources", n)
		case patCall:
			s.call(n)
		case patNew:
			s.creation(n)
		case patRef:
			s.methodReference(n)
		case patFieldAccess:
			s.fieldAccess(n, writes[n.Id()])
		}
	}
	if s.mentionsField(root) {
		walk(root, func(n *sitter.Node, field uint16, parent string) bool {
			if n.Kind() == "identifier" {
				s.identifier(n, field, parent)
			}
			return true
		})
	}
}

// mentionsField is a cheap test before the identifier walk: whether the
// root's text contains the name of a field at all.
func (s *scan) mentionsField(root *sitter.Node) bool {
	text := s.fl.src.Src[root.StartByte():root.EndByte()]
	for name := range s.fields {
		if bytes.Contains(text, []byte(name)) {
			return true
		}
	}
	return false
}

// outermostFunction is the outermost method, constructor or lambda
// around n (n itself when there is none) inside the nearest named class:
// the scope whose locals a lambda or anonymous class can capture.
func (fl *file) outermostFunction(n *sitter.Node) *sitter.Node {
	chain := fl.ancestors(n)
	out := n
	for i := len(chain) - 1; i >= 0; i-- {
		switch chain[i].Kind() {
		case "method_declaration", "constructor_declaration", "compact_constructor_declaration", "lambda_expression":
			out = chain[i]
		case "class_body":
			// A named class ends the capture scope; an anonymous one
			// (inside an object creation) does not.
			if i == 0 || chain[i-1].Kind() != "object_creation_expression" {
				return out
			}
		}
	}
	return out
}

// declaredNames are the parameters and local variables declared in n,
// leaving out the fields of classes nested in it.
func declaredNames(n *sitter.Node, fl *file) map[string]bool {
	names := map[string]bool{}
	walk(n, func(c *sitter.Node, field uint16, parent string) bool {
		switch c.Kind() {
		case "field_declaration":
			return false
		case "identifier":
			switch {
			case field == fieldName && (parent == "variable_declarator" || parent == "formal_parameter" ||
				parent == "catch_formal_parameter" || parent == "enhanced_for_statement" || parent == "resource"):
				names[fl.src.Text(c)] = true
			case parent == "inferred_parameters" || parent == "lambda_expression" && field == fieldParameters:
				names[fl.src.Text(c)] = true
			}
		}
		return true
	})
	return names
}

// fieldsAround are the fields of the classes enclosing n, the nearest
// class winning when names clash.
func (fl *file) fieldsAround(n *sitter.Node) map[string]fieldInfo {
	fields := map[string]fieldInfo{}
	chain := fl.ancestors(n)
	for i := len(chain) - 1; i >= 0; i-- {
		p := chain[i]
		if p.Kind() != "class_body" {
			continue
		}
		for name, f := range fl.classFields(p) {
			if _, inner := fields[name]; !inner {
				fields[name] = f
			}
		}
	}
	return fields
}

// classFields are the fields declared directly in a class body.
func (fl *file) classFields(body *sitter.Node) map[string]fieldInfo {
	fields := map[string]fieldInfo{}
	for _, d := range namedNonComment(body) {
		if d.Kind() != "field_declaration" {
			continue
		}
		final := false
		if mods := childOfKind(d, "modifiers"); mods != nil {
			for _, m := range allChildren(mods) {
				final = final || m.Kind() == "final"
			}
		}
		for _, v := range namedNonComment(d) {
			if v.Kind() == "variable_declarator" {
				fields[fl.src.Text(v.ChildByFieldId(fieldName))] = fieldInfo{final: final}
			}
		}
	}
	return fields
}

// isWrite is true when a node is assigned or incremented.
func isWrite(field uint16, parent string) bool {
	return parent == "assignment_expression" && field == fieldLeft || parent == "update_expression"
}

func (s *scan) identifier(n *sitter.Node, field uint16, parent string) {
	if field == fieldName || field == fieldField || field == fieldParameters || field == fieldType {
		return
	}
	switch parent {
	case "method_reference", "inferred_parameters", "labeled_statement", "break_statement",
		"continue_statement", "scoped_identifier", "marker_annotation", "annotation", "field_access":
		// field_access is judged as a whole in fieldAccess.
		return
	}
	name := s.fl.src.Text(n)
	if _, ok := s.fields[name]; !ok || s.isLocal(name) {
		return
	}
	s.ownField(name, n, isWrite(field, parent))
}

// ownField reports a use of a mutable field of the enclosing classes.
func (s *scan) ownField(name string, n *sitter.Node, write bool) {
	f, ok := s.fields[name]
	if !ok {
		return
	}
	switch {
	case write:
		s.add(udf.BlockerMutableState, "assigns field "+name, n)
	case !f.final:
		s.add(udf.BlockerMutableState, "reads non-final field "+name, n)
	}
}

func (s *scan) fieldAccess(n *sitter.Node, write bool) {
	obj := n.ChildByFieldId(fieldObject)
	name := s.fl.src.Text(n.ChildByFieldId(fieldField))
	if obj == nil || name == "" {
		return
	}
	switch obj.Kind() {
	case "this":
		s.ownField(name, n, write)
		return
	case "identifier":
	default:
		return
	}
	class := s.fl.src.Text(obj)
	if _, own := s.fields[class]; own && !s.isLocal(class) {
		// A field of a mutable field.
		s.ownField(class, obj, false)
		return
	}
	if staticFieldExempt[class] || !startsUpper(class) || startsUpper(name) || s.isLocal(class) {
		// A local's field, a known constant holder, or a nested type.
		return
	}
	if ci, ok := s.fl.classByName[class]; ok {
		f, found := s.fl.classFields(ci.node.ChildByFieldId(fieldBody))[name]
		if !found || f.final && !write {
			return
		}
	}
	if write {
		s.add(udf.BlockerMutableState, "assigns static field "+class+"."+name, n)
		return
	}
	s.add(udf.BlockerMutableState, "static field "+class+"."+name, n)
}

func startsUpper(s string) bool {
	for _, r := range s {
		return unicode.IsUpper(r)
	}
	return false
}

// qualifier is the receiver of a call when it is a plain name (a class,
// a variable, a field chain, this or super), with java.lang. dropped.
func (s *scan) qualifier(obj *sitter.Node) string {
	if obj == nil {
		return ""
	}
	switch obj.Kind() {
	case "identifier", "field_access", "this", "super", "scoped_identifier":
		q := strings.Join(strings.Fields(s.fl.src.Text(obj)), "")
		return strings.TrimPrefix(q, "java.lang.")
	}
	return ""
}

func (s *scan) call(inv *sitter.Node) {
	fl := s.fl
	name := fl.src.Text(inv.ChildByFieldId(fieldName))
	obj := inv.ChildByFieldId(fieldObject)
	if obj == nil {
		s.unqualifiedCall(inv, name)
		return
	}
	qual := s.qualifier(obj)
	callee := name
	if qual != "" {
		callee = qual + "." + name
	}
	if obj.Kind() == "method_invocation" && s.streamChain(obj) {
		// Part of a pipeline already reported at its source.
		return
	}
	if name == "forEach" {
		s.add(udf.BlockerLoop, "forEach call", inv)
		return
	}
	if s.streamSource(qual, name) {
		s.add(udf.BlockerLoop, "stream pipeline ("+callee+")", inv)
		return
	}
	if obj.Kind() == "method_invocation" && optionalMethods[name] && s.optionalChain(obj) {
		return
	}
	if kind, ok := s.receiverKind(obj, qual, name); ok {
		s.add(kind, "call to "+callee, inv)
		return
	}
	if s.pureStaticCall(qual, name) {
		return
	}
	if qual == "this" || qual == "super" || fl.classByName[qual] != nil {
		if ms := fl.methods[name]; len(ms) > 0 {
			s.enqueue(ms)
			return
		}
	}
	if pureInstance[name] && (qual == "" || fl.classByName[qual] == nil) {
		return
	}
	s.add(udf.BlockerUnknownCall, "call to "+callee, inv)
}

func (s *scan) unqualifiedCall(inv *sitter.Node, name string) {
	fl := s.fl
	if ms := fl.methods[name]; len(ms) > 0 {
		s.enqueue(ms)
		return
	}
	class := fl.staticImports[name]
	if class == "" {
		for _, w := range fl.staticWildcards {
			last, _ := lastSegment(w)
			if _, known := pureStatic[last]; known {
				class = w
				break
			}
		}
	}
	if class != "" {
		last, _ := lastSegment(class)
		callee := last + "." + name
		switch {
		case (last == "Math" || last == "StrictMath") && name == "random":
			s.add(udf.BlockerNondeterminism, "call to "+callee, inv)
			return
		case s.pureStaticCall(last, name):
			return
		}
		s.add(udf.BlockerUnknownCall, "call to "+callee, inv)
		return
	}
	s.add(udf.BlockerUnknownCall, "call to "+name, inv)
}

func (s *scan) pureStaticCall(qual, name string) bool {
	methods, ok := pureStatic[qual]
	if !ok || impureStatic[qual+"."+name] {
		return false
	}
	return len(methods) == 0 || methods[name]
}

func (s *scan) streamSource(qual, name string) bool {
	if name == "stream" || name == "parallelStream" {
		return true
	}
	methods, ok := streamSources[qual]
	return ok && (len(methods) == 0 || methods[name])
}

// streamChain is true when a call chain contains a stream source.
func (s *scan) streamChain(inv *sitter.Node) bool {
	for depth := 0; inv != nil && inv.Kind() == "method_invocation" && depth < 64; depth++ {
		obj := inv.ChildByFieldId(fieldObject)
		if s.streamSource(s.qualifier(obj), s.fl.src.Text(inv.ChildByFieldId(fieldName))) {
			return true
		}
		inv = obj
	}
	return false
}

// optionalChain is true when a call chain starts at Optional.of(...),
// ofNullable(...) or empty().
func (s *scan) optionalChain(inv *sitter.Node) bool {
	for depth := 0; inv != nil && inv.Kind() == "method_invocation" && depth < 64; depth++ {
		obj := inv.ChildByFieldId(fieldObject)
		if s.qualifier(obj) == "Optional" {
			return true
		}
		if !optionalMethods[s.fl.src.Text(inv.ChildByFieldId(fieldName))] {
			return false
		}
		inv = obj
	}
	return false
}

// receiverKind judges a call by its receiver: System.out, the clock,
// random numbers, loggers, and classes or variables of I/O and network
// types.
func (s *scan) receiverKind(obj *sitter.Node, qual, name string) (udf.BlockerKind, bool) {
	switch {
	case qual == "System.out" || qual == "System.err" || qual == "System.in":
		return udf.BlockerIO, true
	case qual == "System" && (name == "currentTimeMillis" || name == "nanoTime"):
		return udf.BlockerNondeterminism, true
	case (qual == "Math" || qual == "StrictMath") && name == "random":
		return udf.BlockerNondeterminism, true
	case name == "now" || name == "randomUUID":
		return udf.BlockerNondeterminism, true
	case qual == "Calendar" && name == "getInstance":
		return udf.BlockerNondeterminism, true
	}
	typeName := qual
	if obj.Kind() == "identifier" {
		if d, ok := s.fl.lookupVar(qual, obj.StartByte()); ok && d.typ != nil && (!startsUpper(qual) || hasField(s.fields, qual) || s.isLocal(qual)) {
			typeName = s.fl.src.Text(d.typ)
		}
		lower := strings.ToLower(qual)
		if logLevels[name] && (lower == "log" || strings.HasSuffix(lower, "logger")) {
			return udf.BlockerIO, true
		}
	}
	if kind, ok := s.fl.classKind(typeName); ok {
		return kind, true
	}
	if randomMethods[name] {
		return udf.BlockerNondeterminism, true
	}
	return "", false
}

// classKind says whether a type is one of I/O, network or randomness,
// by its import or its simple name.
func (fl *file) classKind(typeName string) (udf.BlockerKind, bool) {
	if typeName == "" {
		return "", false
	}
	base, _, _ := strings.Cut(typeName, "<")
	base = strings.TrimSpace(base)
	simple, _ := lastSegment(base)
	full := base
	if imp, ok := fl.imports[base]; ok {
		full = imp
	}
	switch {
	case simple == "URLEncoder" || simple == "URLDecoder" || simple == "URI":
		// java.net, but pure string and syntax handling.
		return "", false
	case strings.HasPrefix(full, "java.net."):
		return udf.BlockerNetwork, true
	case strings.HasPrefix(full, "java.io.") || strings.HasPrefix(full, "java.nio.file.") || strings.HasPrefix(full, "java.nio.channels."):
		return udf.BlockerIO, true
	case strings.HasPrefix(full, "java.util.") && randomClasses[simple],
		strings.HasPrefix(full, "java.security.") && randomClasses[simple]:
		return udf.BlockerNondeterminism, true
	case strings.Contains(full, ".") && !strings.HasPrefix(full, "java.lang."):
		// Imported from elsewhere: the simple-name guesses below do
		// not apply, except to logging libraries.
		if strings.Contains(full, "log") && ioClasses[simple] {
			return udf.BlockerIO, true
		}
		return "", false
	case ioClasses[simple]:
		return udf.BlockerIO, true
	case networkClasses[simple]:
		return udf.BlockerNetwork, true
	case randomClasses[simple]:
		return udf.BlockerNondeterminism, true
	}
	return "", false
}

func (s *scan) creation(n *sitter.Node) {
	t := n.ChildByFieldId(fieldType)
	if t == nil {
		return
	}
	base := t
	if t.Kind() == "generic_type" {
		if b := firstNamed(t, "type_identifier", "scoped_type_identifier"); b != nil {
			base = b
		}
	}
	typeName := strings.Join(strings.Fields(s.fl.src.Text(base)), "")
	simple, _ := lastSegment(typeName)
	detail := "new " + typeName
	if kind, ok := s.fl.classKind(typeName); ok {
		s.add(kind, detail, n)
		return
	}
	switch {
	case simple == "Date" && len(arguments(n)) == 0:
		s.add(udf.BlockerNondeterminism, detail+"()", n)
	case pureConstructors[simple], strings.HasSuffix(simple, "Exception"), strings.HasSuffix(simple, "Error"),
		s.fl.classByName[simple] != nil, childOfKind(n, "class_body") != nil:
		// Values, exceptions about to be thrown, classes of this file;
		// an anonymous class's methods are scanned as part of the body.
	default:
		s.add(udf.BlockerUnknownCall, detail, n)
	}
}

// methodReference judges Class::method and expr::method like a call:
// methods of this file are scanned, known pure ones pass, the rest are
// judged by their receiver.
func (s *scan) methodReference(n *sitter.Node) {
	parts := namedNonComment(n)
	if len(parts) < 2 {
		return
	}
	recv, name := parts[0], s.fl.src.Text(parts[len(parts)-1])
	qual := s.qualifier(recv)
	if recv.Kind() == "type_identifier" || recv.Kind() == "scoped_type_identifier" || recv.Kind() == "generic_type" {
		qual = strings.TrimPrefix(strings.Join(strings.Fields(s.fl.src.Text(recv)), ""), "java.lang.")
	}
	detail := "method reference " + qual + "::" + name
	if ms := s.fl.methods[name]; len(ms) > 0 && (qual == "this" || qual == "super" || s.fl.classByName[qual] != nil) {
		s.enqueue(ms)
		return
	}
	if name == "new" {
		return
	}
	if kind, ok := s.receiverKind(recv, qual, name); ok {
		s.add(kind, detail, n)
		return
	}
	if s.pureStaticCall(qual, name) || pureInstance[name] {
		return
	}
	s.add(udf.BlockerUnknownCall, detail, n)
}

func hasField(fields map[string]fieldInfo, name string) bool {
	_, ok := fields[name]
	return ok
}
