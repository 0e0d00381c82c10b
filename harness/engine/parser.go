package engine

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// ast is a parsed, untyped expression.
type ast interface{ position() int }

type (
	litAST struct {
		pos int
		typ *udf.Type // udf.Prim("") stands for the NULL literal's type (void)
		val any       // internal representation, nil for NULL
	}
	colAST struct {
		pos  int
		name string
	}
	// callAST is a function call or an operator; operators use their
	// symbol or keyword in lower case as the name ("+", "and", "in", ...).
	callAST struct {
		pos      int
		name     string
		args     []ast
		distinct bool
	}
	castAST struct {
		pos int
		x   ast
		to  *udf.Type
		try bool
	}
	caseAST struct {
		pos     int
		operand ast // nil for CASE WHEN
		whens   []ast
		thens   []ast
		els     ast // nil when there is no ELSE
	}
	lambdaAST struct {
		pos    int
		params []string
		body   ast
	}
)

func (a *litAST) position() int    { return a.pos }
func (a *colAST) position() int    { return a.pos }
func (a *callAST) position() int   { return a.pos }
func (a *castAST) position() int   { return a.pos }
func (a *caseAST) position() int   { return a.pos }
func (a *lambdaAST) position() int { return a.pos }

// voidType is the type of the NULL literal (Spark's NullType, "void").
var voidType = &udf.Type{Kind: "void"}

type parser struct {
	src  string
	toks []tok
	i    int
	// depth counts the nested rules open (parentheses, calls, NOT and
	// signs): each takes stack, so it is bounded by MaxNesting.
	depth int
}

// MaxNesting and MaxTokens bound an expression udfx parses: 400,000
// nested parentheses overflowed the stack and killed the process (verify
// with no report, the MCP server with its session). Every rewrite the
// translator writes is far inside both.
const (
	MaxNesting = 256
	MaxTokens  = 50000
)

// enter opens a nested rule; the caller defers leave.
func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxNesting {
		return &SyntaxError{Pos: p.peek().pos, Msg: fmt.Sprintf("the expression nests deeper than %d levels (parentheses, calls, NOT and signs), which udfx does not parse", MaxNesting)}
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func parse(src string) (ast, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: toks}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tEOF {
		return nil, p.errf("unexpected %s", p.describe(p.peek()))
	}
	return e, nil
}

func (p *parser) peek() tok { return p.toks[p.i] }
func (p *parser) peekAt(k int) tok {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) advance() tok {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) describe(t tok) string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tStr:
		return "string literal"
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) errf(format string, args ...any) error {
	return &SyntaxError{Pos: p.peek().pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) isKw(kw string) bool {
	t := p.peek()
	return t.kind == tIdent && strings.EqualFold(t.text, kw)
}
func (p *parser) isKwAt(k int, kw string) bool {
	t := p.peekAt(k)
	return t.kind == tIdent && strings.EqualFold(t.text, kw)
}
func (p *parser) acceptKw(kw string) bool {
	if p.isKw(kw) {
		p.i++
		return true
	}
	return false
}
func (p *parser) expectKw(kw string) error {
	if !p.acceptKw(kw) {
		return p.errf("expected %s, got %s", strings.ToUpper(kw), p.describe(p.peek()))
	}
	return nil
}
func (p *parser) isOp(op string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == op
}
func (p *parser) acceptOp(op string) bool {
	if p.isOp(op) {
		p.i++
		return true
	}
	return false
}
func (p *parser) expectOp(op string) error {
	if !p.acceptOp(op) {
		return p.errf("expected %q, got %s", op, p.describe(p.peek()))
	}
	return nil
}

func call(pos int, name string, args ...ast) *callAST {
	return &callAST{pos: pos, name: name, args: args}
}

// expr: or-expression. Precedence follows Spark's SqlBaseParser.g4:
// OR < AND < NOT < predicate (IN, BETWEEN, LIKE, IS) < comparison < | < ^ < & < || < + - < * / % div < unary < postfix (:: [] .).
func (p *parser) expr() (ast, error) {
	defer p.leave()
	if err := p.enter(); err != nil {
		return nil, err
	}
	return p.orExpr()
}

func (p *parser) orExpr() (ast, error) {
	l, err := p.andExpr()
	if err != nil {
		return nil, err
	}
	for p.isKw("or") {
		pos := p.advance().pos
		r, err := p.andExpr()
		if err != nil {
			return nil, err
		}
		l = call(pos, "or", l, r)
	}
	return l, nil
}

func (p *parser) andExpr() (ast, error) {
	l, err := p.notExpr()
	if err != nil {
		return nil, err
	}
	for p.isKw("and") {
		pos := p.advance().pos
		r, err := p.notExpr()
		if err != nil {
			return nil, err
		}
		l = call(pos, "and", l, r)
	}
	return l, nil
}

func (p *parser) notExpr() (ast, error) {
	if p.isKw("not") || p.isOp("!") {
		defer p.leave()
		if err := p.enter(); err != nil {
			return nil, err
		}
		pos := p.advance().pos
		x, err := p.notExpr()
		if err != nil {
			return nil, err
		}
		return call(pos, "not", x), nil
	}
	return p.predicate()
}

// predicate parses a comparison-level value followed by any number of
// predicates (Spark allows `a IS NULL IS NOT NULL`).
func (p *parser) predicate() (ast, error) {
	x, err := p.comparison()
	if err != nil {
		return nil, err
	}
	for {
		pos := p.peek().pos
		neg := false
		save := p.i
		if p.isKw("not") && (p.isKwAt(1, "in") || p.isKwAt(1, "between") || p.isKwAt(1, "like") || p.isKwAt(1, "ilike") || p.isKwAt(1, "rlike") || p.isKwAt(1, "regexp")) {
			p.i++
			neg = true
		}
		var out ast
		switch {
		case p.acceptKw("in"):
			if err := p.expectOp("("); err != nil {
				return nil, err
			}
			if p.isKw("select") {
				return nil, &UnsupportedFunctionError{Name: "IN (subquery)"}
			}
			args, err := p.exprList(")")
			if err != nil {
				return nil, err
			}
			out = call(pos, "in", append([]ast{x}, args...)...)
		case p.acceptKw("between"):
			lo, err := p.comparison()
			if err != nil {
				return nil, err
			}
			if err := p.expectKw("and"); err != nil {
				return nil, err
			}
			hi, err := p.comparison()
			if err != nil {
				return nil, err
			}
			out = call(pos, "between", x, lo, hi)
		case p.isKw("like") || p.isKw("ilike") || p.isKw("rlike") || p.isKw("regexp"):
			name := strings.ToLower(p.advance().text)
			if name == "regexp" {
				name = "rlike"
			}
			if p.isKw("any") || p.isKw("some") || p.isKw("all") {
				return nil, &UnsupportedFunctionError{Name: strings.ToUpper(name + " " + p.peek().text)}
			}
			pat, err := p.comparison()
			if err != nil {
				return nil, err
			}
			args := []ast{x, pat}
			if name != "rlike" && p.acceptKw("escape") {
				t := p.peek()
				if t.kind != tStr {
					return nil, p.errf("expected an escape string, got %s", p.describe(t))
				}
				p.advance()
				args = append(args, &litAST{pos: t.pos, typ: udf.Prim(udf.String), val: t.text})
			}
			out = call(pos, name, args...)
		case p.isKw("is"):
			p.advance()
			isNot := p.acceptKw("not")
			// negated is set by the forms that apply NOT themselves.
			negated := false
			switch {
			case p.acceptKw("null"):
				out = call(pos, "isnull", x)
				if isNot {
					out = call(pos, "isnotnull", x)
				}
				negated = true
			case p.acceptKw("unknown"):
				// IS [NOT] UNKNOWN is IS [NOT] NULL restricted to booleans;
				// the operator names cannot be written as function calls.
				out = call(pos, "is-unknown", x)
				if isNot {
					out = call(pos, "is-not-unknown", x)
				}
				negated = true
			case p.acceptKw("true"):
				out = call(pos, "<=>", x, &litAST{pos: pos, typ: udf.Prim(udf.Boolean), val: true})
			case p.acceptKw("false"):
				out = call(pos, "<=>", x, &litAST{pos: pos, typ: udf.Prim(udf.Boolean), val: false})
			case p.acceptKw("distinct"):
				if err := p.expectKw("from"); err != nil {
					return nil, err
				}
				y, err := p.comparison()
				if err != nil {
					return nil, err
				}
				out = call(pos, "not", call(pos, "<=>", x, y))
			default:
				return nil, p.errf("expected NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS, got %s", p.describe(p.peek()))
			}
			if isNot && !negated {
				out = call(pos, "not", out)
			}
		default:
			p.i = save
			return x, nil
		}
		if neg {
			out = call(pos, "not", out)
		}
		x = out
	}
}

var compOps = map[string]bool{"=": true, "==": true, "<=>": true, "!=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true}

// binary operator levels, loosest first.
var binLevels = [][]string{
	{"|"}, {"^"}, {"&"}, {"||"}, {"+", "-"}, {"*", "/", "%", "div"},
}

func (p *parser) comparison() (ast, error) {
	l, err := p.binary(0)
	if err != nil {
		return nil, err
	}
	for p.peek().kind == tOp && compOps[p.peek().text] {
		t := p.advance()
		r, err := p.binary(0)
		if err != nil {
			return nil, err
		}
		name := t.text
		switch name {
		case "==":
			name = "="
		case "<>":
			name = "!="
		}
		l = call(t.pos, name, l, r)
	}
	return l, nil
}

func (p *parser) binOpAt(level int) (string, bool) {
	t := p.peek()
	for _, op := range binLevels[level] {
		if op == "div" {
			if t.kind == tIdent && strings.EqualFold(t.text, "div") {
				return op, true
			}
			continue
		}
		if t.kind == tOp && t.text == op {
			return op, true
		}
	}
	return "", false
}

func (p *parser) binary(level int) (ast, error) {
	if level == len(binLevels) {
		return p.unary()
	}
	l, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		op, ok := p.binOpAt(level)
		if !ok {
			return l, nil
		}
		pos := p.advance().pos
		r, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		l = call(pos, op, l, r)
	}
}

func (p *parser) unary() (ast, error) {
	if p.isOp("-") || p.isOp("+") || p.isOp("~") {
		defer p.leave()
		if err := p.enter(); err != nil {
			return nil, err
		}
		t := p.advance()
		// A minus directly before a number literal is part of the literal,
		// as in Spark's `number` rule: -2147483648 is an INT, -128Y a TINYINT.
		if t.text == "-" && p.peek().kind == tNumber && !p.postfixFollows(1) {
			n := p.advance()
			return p.number(n, true)
		}
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		switch t.text {
		case "-":
			return call(t.pos, "negative", x), nil
		case "+":
			return call(t.pos, "positive", x), nil
		}
		return call(t.pos, "~", x), nil
	}
	return p.postfix()
}

// postfixFollows reports whether the token k ahead is a postfix operator
// (:: or [), which binds tighter than a sign.
func (p *parser) postfixFollows(k int) bool {
	t := p.peekAt(k)
	return t.kind == tOp && (t.text == "::" || t.text == "[" || t.text == ".")
}

func (p *parser) postfix() (ast, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.isOp("::"):
			pos := p.advance().pos
			t, err := p.dataType()
			if err != nil {
				return nil, err
			}
			x = &castAST{pos: pos, x: x, to: t}
		case p.isOp("["):
			pos := p.advance().pos
			idx, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp("]"); err != nil {
				return nil, err
			}
			x = call(pos, "[]", x, idx)
		case p.isOp("."):
			return nil, &UnsupportedFunctionError{Name: "field access (.)"}
		default:
			return x, nil
		}
	}
}

func (p *parser) exprList(closer string) ([]ast, error) {
	var out []ast
	if p.acceptOp(closer) {
		return out, nil
	}
	for {
		e, err := p.lambdaOrExpr()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if p.acceptOp(closer) {
			return out, nil
		}
		if err := p.expectOp(","); err != nil {
			return nil, err
		}
	}
}

// lambdaOrExpr reads a function argument: a lambda `x -> e`,
// `(x, y) -> e`, or an expression.
func (p *parser) lambdaOrExpr() (ast, error) {
	t := p.peek()
	if (t.kind == tIdent || t.kind == tQuoted) && p.peekAt(1).kind == tOp && p.peekAt(1).text == "->" {
		p.i += 2
		body, err := p.expr()
		if err != nil {
			return nil, err
		}
		return &lambdaAST{pos: t.pos, params: []string{t.text}, body: body}, nil
	}
	if t.kind == tOp && t.text == "(" {
		// (a, b, ...) -> body
		var params []string
		k := 1
		for {
			id := p.peekAt(k)
			if id.kind != tIdent && id.kind != tQuoted {
				break
			}
			params = append(params, id.text)
			sep := p.peekAt(k + 1)
			if sep.kind == tOp && sep.text == "," {
				k += 2
				continue
			}
			if sep.kind == tOp && sep.text == ")" {
				arrow := p.peekAt(k + 2)
				if arrow.kind == tOp && arrow.text == "->" {
					p.i += k + 3
					body, err := p.expr()
					if err != nil {
						return nil, err
					}
					return &lambdaAST{pos: t.pos, params: params, body: body}, nil
				}
			}
			break
		}
	}
	return p.expr()
}

func (p *parser) primary() (ast, error) {
	t := p.peek()
	switch t.kind {
	case tEOF:
		return nil, p.errf("unexpected end of input")
	case tNumber:
		p.advance()
		return p.number(t, false)
	case tStr:
		p.advance()
		s := t.text
		for p.peek().kind == tStr { // 'a' 'b' is 'ab'
			s += p.advance().text
		}
		return &litAST{pos: t.pos, typ: udf.Prim(udf.String), val: s}, nil
	case tQuoted:
		p.advance()
		if p.isOp("->") {
			return nil, p.errf("a lambda is only allowed as a function argument")
		}
		return &colAST{pos: t.pos, name: t.text}, nil
	case tOp:
		if t.text == "(" {
			p.advance()
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			if p.isOp(",") {
				return nil, &UnsupportedFunctionError{Name: "struct constructor (a, b)"}
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			return e, nil
		}
		return nil, p.errf("unexpected %s", p.describe(t))
	}
	// Identifier: keyword literal, special form, function call or column.
	kw := strings.ToLower(t.text)
	next := p.peekAt(1)
	switch kw {
	case "null":
		p.advance()
		return &litAST{pos: t.pos, typ: voidType}, nil
	case "true", "false":
		p.advance()
		return &litAST{pos: t.pos, typ: udf.Prim(udf.Boolean), val: kw == "true"}, nil
	case "case":
		p.advance()
		return p.caseExpr(t.pos)
	case "cast", "try_cast":
		if next.kind == tOp && next.text == "(" {
			p.i += 2
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expectKw("as"); err != nil {
				return nil, err
			}
			ty, err := p.dataType()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			return &castAST{pos: t.pos, x: x, to: ty, try: kw == "try_cast"}, nil
		}
	case "date", "timestamp", "timestamp_ltz", "timestamp_ntz", "x", "interval":
		if next.kind == tStr {
			p.i += 2
			return p.typedLiteral(t, kw, next.text)
		}
	}
	if next.kind == tOp && next.text == "(" {
		p.i += 2
		return p.funcCall(t, kw)
	}
	p.advance()
	if p.isOp("->") {
		return nil, p.errf("a lambda is only allowed as a function argument")
	}
	return &colAST{pos: t.pos, name: t.text}, nil
}

func (p *parser) typedLiteral(t tok, kw, s string) (ast, error) {
	switch kw {
	case "date":
		d, ok := parseDate(s)
		if !ok {
			return nil, &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("cannot parse the DATE value: %s", s)}
		}
		return &litAST{pos: t.pos, typ: udf.Prim(udf.Date), val: d}, nil
	case "timestamp", "timestamp_ltz":
		// The literal is read in the session time zone; resolved in analysis.
		return call(t.pos, "$timestamp_literal", &litAST{pos: t.pos, typ: udf.Prim(udf.String), val: s}), nil
	case "x":
		if len(s)%2 != 0 || !isHex(s) {
			return nil, &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("invalid binary literal X'%s'", s)}
		}
		b := make([]byte, len(s)/2)
		for i := range b {
			v, _ := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
			b[i] = byte(v)
		}
		return &litAST{pos: t.pos, typ: udf.Prim(udf.Binary), val: b}, nil
	}
	return nil, &UnsupportedFunctionError{Name: strings.ToUpper(kw) + " literal"}
}

func (p *parser) caseExpr(pos int) (ast, error) {
	c := &caseAST{pos: pos}
	if !p.isKw("when") {
		op, err := p.expr()
		if err != nil {
			return nil, err
		}
		c.operand = op
	}
	for p.acceptKw("when") {
		w, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("then"); err != nil {
			return nil, err
		}
		th, err := p.expr()
		if err != nil {
			return nil, err
		}
		c.whens = append(c.whens, w)
		c.thens = append(c.thens, th)
	}
	if len(c.whens) == 0 {
		return nil, p.errf("expected WHEN, got %s", p.describe(p.peek()))
	}
	if p.acceptKw("else") {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		c.els = e
	}
	if err := p.expectKw("end"); err != nil {
		return nil, err
	}
	return c, nil
}

// funcCall parses the arguments of name( ... ), including the SQL-standard
// keyword forms of TRIM, POSITION, SUBSTRING and EXTRACT.
func (p *parser) funcCall(t tok, name string) (ast, error) {
	switch name {
	case "trim", "ltrim", "rtrim":
		if name == "trim" && (p.isKw("both") || p.isKw("leading") || p.isKw("trailing") || p.isKw("from")) {
			mode := "both"
			if !p.isKw("from") {
				mode = strings.ToLower(p.advance().text)
			}
			var chars ast
			if !p.acceptKw("from") {
				c, err := p.expr()
				if err != nil {
					return nil, err
				}
				chars = c
				if err := p.expectKw("from"); err != nil {
					return nil, err
				}
			}
			src, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			fn := map[string]string{"both": "trim", "leading": "ltrim", "trailing": "rtrim"}[mode]
			if chars == nil {
				return call(t.pos, fn, src), nil
			}
			// The function form is trim(trimStr, str) (checked in Spark 4.1.1:
			// trim('xxaxx', 'x') is ''), so FROM puts the characters first too.
			return call(t.pos, fn, chars, src), nil
		}
	case "position":
		save := p.i
		if x, err := p.binary(0); err == nil && p.acceptKw("in") {
			y, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			return call(t.pos, "locate", x, y), nil
		}
		p.i = save
	case "substring", "substr":
		save := p.i
		if x, err := p.expr(); err == nil && p.acceptKw("from") {
			pos, err := p.expr()
			if err != nil {
				return nil, err
			}
			args := []ast{x, pos}
			if p.acceptKw("for") {
				l, err := p.expr()
				if err != nil {
					return nil, err
				}
				args = append(args, l)
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			return call(t.pos, "substring", args...), nil
		}
		p.i = save
	case "extract":
		if (p.peek().kind == tIdent) && p.isKwAt(1, "from") {
			field := strings.ToLower(p.advance().text)
			p.advance()
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			return call(t.pos, "$extract", &litAST{pos: t.pos, typ: udf.Prim(udf.String), val: field}, x), nil
		}
	}
	c := &callAST{pos: t.pos, name: name}
	if p.acceptKw("distinct") {
		c.distinct = true
	}
	args, err := p.exprList(")")
	if err != nil {
		return nil, err
	}
	c.args = args
	if p.isKw("over") || p.isKw("filter") {
		return nil, &UnsupportedFunctionError{Name: name + " with " + strings.ToUpper(p.peek().text)}
	}
	return c, nil
}

// dataType parses a SQL type name after AS or ::.
func (p *parser) dataType() (*udf.Type, error) {
	start := p.peek().pos
	depth := 0
	end := start
	// Collect the type's tokens: identifiers, numbers, and balanced <> ().
	for {
		t := p.peek()
		if t.kind == tEOF {
			break
		}
		if t.kind == tOp {
			switch t.text {
			case "<", "(":
				depth++
			case ">", ")":
				if depth == 0 {
					goto done
				}
				depth--
			case ",", ":":
				if depth == 0 {
					goto done
				}
			default:
				if depth == 0 {
					goto done
				}
			}
		} else if depth == 0 && end > start {
			// A second word at top level ends the type unless it continues
			// a multi-word name (none are supported).
			goto done
		}
		p.advance()
		end = p.peek().pos
	}
done:
	text := strings.TrimSpace(p.src[start:end])
	if text == "" {
		return nil, &SyntaxError{Pos: start, Msg: "expected a data type"}
	}
	low := strings.ToLower(text)
	if strings.HasPrefix(low, "timestamp_ntz") || strings.HasPrefix(low, "interval") || strings.HasPrefix(low, "variant") || strings.HasPrefix(low, "time") && !strings.HasPrefix(low, "timestamp") {
		return nil, &UnsupportedFunctionError{Name: "type " + text}
	}
	ty, err := udf.ParseType(text)
	if err != nil {
		return nil, &SyntaxError{Pos: start, Msg: err.Error()}
	}
	return ty, nil
}

// number types a numeric literal as Spark's parser does.
func (p *parser) number(t tok, neg bool) (ast, error) {
	raw := t.text
	if neg {
		raw = "-" + raw
	}
	low := strings.ToLower(raw)
	mk := func(typ *udf.Type, v any) (ast, error) { return &litAST{pos: t.pos, typ: typ, val: v}, nil }
	rangeErr := func(typ string, lo, hi string) error {
		return &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf("numeric literal %s does not fit in range [%s, %s] for type %s", strings.TrimRight(low[:len(low)-1], "l"), lo, hi, typ)}
	}
	isFrac := strings.ContainsAny(low, ".e")
	switch {
	case strings.HasSuffix(low, "bd"):
		d, ok := parseDecimalLiteral(low[:len(low)-2])
		if !ok {
			return nil, &SyntaxError{Pos: t.pos, Msg: "decimal literal out of range: " + raw}
		}
		return mk(udf.DecimalOf(d.prec, d.scale), d.unscaled)
	case strings.HasSuffix(low, "d") && !strings.HasSuffix(low, "bd"):
		f, err := strconv.ParseFloat(low[:len(low)-1], 64)
		if err != nil {
			return nil, &SyntaxError{Pos: t.pos, Msg: "double literal out of range: " + raw}
		}
		return mk(udf.Prim(udf.Double), f)
	case strings.HasSuffix(low, "f"):
		f, err := strconv.ParseFloat(low[:len(low)-1], 32)
		if err != nil {
			return nil, &SyntaxError{Pos: t.pos, Msg: "float literal out of range: " + raw}
		}
		return mk(udf.Prim(udf.Float), float32(f))
	case !isFrac && (strings.HasSuffix(low, "l") || strings.HasSuffix(low, "s") || strings.HasSuffix(low, "y")):
		digits := low[:len(low)-1]
		kinds := map[byte]struct {
			k    udf.TypeKind
			bits int
			lo   string
			hi   string
		}{'l': {udf.Long, 64, "-9223372036854775808", "9223372036854775807"}, 's': {udf.Short, 16, "-32768", "32767"}, 'y': {udf.Byte, 8, "-128", "127"}}
		k := kinds[low[len(low)-1]]
		v, err := strconv.ParseInt(digits, 10, k.bits)
		if err != nil {
			return nil, rangeErr(string(k.k), k.lo, k.hi)
		}
		return mk(udf.Prim(k.k), v)
	case strings.HasSuffix(low, "l") || strings.HasSuffix(low, "s") || strings.HasSuffix(low, "y"):
		return nil, &SyntaxError{Pos: t.pos, Msg: "invalid number literal " + raw}
	case strings.Contains(low, "e"):
		f, err := strconv.ParseFloat(low, 64)
		if err != nil {
			return nil, &SyntaxError{Pos: t.pos, Msg: "double literal out of range: " + raw}
		}
		return mk(udf.Prim(udf.Double), f)
	case strings.Contains(low, "."):
		d, ok := parseDecimalLiteral(low)
		if !ok {
			return nil, &SyntaxError{Pos: t.pos, Msg: "decimal literal out of range: " + raw}
		}
		return mk(udf.DecimalOf(d.prec, d.scale), d.unscaled)
	}
	// Plain integer: INT if it fits, else BIGINT, else DECIMAL(n,0).
	if v, err := strconv.ParseInt(low, 10, 32); err == nil {
		return mk(udf.Prim(udf.Int), v)
	}
	if v, err := strconv.ParseInt(low, 10, 64); err == nil {
		return mk(udf.Prim(udf.Long), v)
	}
	d, ok := parseDecimalLiteral(low)
	if !ok {
		return nil, &SyntaxError{Pos: t.pos, Msg: "integer literal out of range: " + raw}
	}
	return mk(udf.DecimalOf(d.prec, d.scale), d.unscaled)
}

type decLit struct {
	unscaled    *big.Int
	prec, scale int
}

// parseDecimalLiteral types a decimal string like java.math.BigDecimal
// followed by Spark's DecimalType.fromDecimal: precision = max(digits,
// scale). An exponent (1e1BD) moves the scale; a negative scale becomes
// 0 with the digits multiplied out, as Spark does without
// spark.sql.legacy.allowNegativeScaleOfDecimal (1e1BD is 10, DECIMAL(2,0)).
func parseDecimalLiteral(s string) (decLit, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 1000 || e < -1000 {
			return decLit{}, false
		}
		mant, exp = s[:i], e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	scale := len(frac) - exp
	digits := intPart + frac
	if scale < 0 {
		digits += strings.Repeat("0", -scale)
		scale = 0
	}
	digits = strings.TrimLeft(digits, "0")
	u := new(big.Int)
	if digits != "" {
		u.SetString(digits, 10)
	}
	if neg {
		u.Neg(u)
	}
	prec := len(digits)
	if prec == 0 {
		prec = 1
	}
	if scale > prec {
		prec = scale
	}
	if prec > udf.MaxDecimalPrecision {
		return decLit{}, false
	}
	return decLit{unscaled: u, prec: prec, scale: scale}, true
}
