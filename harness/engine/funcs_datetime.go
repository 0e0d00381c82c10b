package engine

import (
	"time"

	"github.com/udfx/udfx/harness/udf"
)

// datetimeFuncs is Spark's datetime_funcs group, and the TIMESTAMP
// literal. date + int and date - int are date_add and date_sub
// (dateArith). The functions of the clock (current_date, now, ...) are
// never supported (nondeterministic, funcs.go).
var datetimeFuncs = []funcDef{
	{"date_add date_sub", 2, 2, buildDateAdd, nil},
	{"datediff", 2, 2, buildDateDiff, nil},
	{"year", 1, 1, datePart(yearOf), nil},
	{"month", 1, 1, datePart(monthOf), nil},
	{"day dayofmonth", 1, 1, datePart(dayOf), nil},
	{"quarter", 1, 1, datePart(quarterOf), nil},
	{"dayofyear", 1, 1, datePart(dayOfYear), nil},
	{"dayofweek", 1, 1, datePart(dayOfWeek), nil},
	{"last_day", 1, 1, buildLastDay, nil},
	{"add_months", 2, 2, buildAddMonths, nil},
	{"to_date", 1, 2, buildToDate, nil},
	{"date_format", 2, 2, buildDateFormat, nil},
	{"$timestamp_literal", 1, 1, buildTimestampLiteral, nil},
}

func (a *analyzer) dateArg(name string, x node) (node, error) {
	switch x.typ().Kind {
	case udf.Date:
		return x, nil
	case udf.Timestamp, udf.String, "void":
		return a.cast(x, tDate, false, false)
	}
	return nil, mismatch(name, x, "date")
}

// dateArith is date + int and date - int (date_add, date_sub).
func (a *analyzer) dateArith(op string, args []node) (node, error) {
	if args[0].typ().Kind == udf.Date && isIntegral(args[1].typ()) {
		name := "date_add"
		if op == "-" {
			name = "date_sub"
		}
		return builtins[name].build(a, name, args)
	}
	if op == "+" && args[1].typ().Kind == udf.Date && isIntegral(args[0].typ()) {
		return builtins["date_add"].build(a, "date_add", []node{args[1], args[0]})
	}
	return nil, &UnsupportedFunctionError{Name: "date " + op + " " + args[1].typ().String()}
}

func buildDateAdd(a *analyzer, name string, args []node) (node, error) {
	d, err := a.dateArg(name, args[0])
	if err != nil {
		return nil, err
	}
	if !isIntegral(args[1].typ()) && !isVoid(args[1].typ()) {
		return nil, mismatch(name, args[1], "integer")
	}
	n, _ := a.cast(args[1], tInt, false, false)
	sign := int64(1)
	if name == "date_sub" {
		sign = -1
	}
	return a.fn(name, tDate, []node{d, n}, strictRow(tDate, func(v []any) (any, *RowError) {
		return int64(int32(v[0].(int64) + sign*v[1].(int64))), nil
	})), nil
}

func buildDateDiff(a *analyzer, name string, args []node) (node, error) {
	x, err := a.dateArg(name, args[0])
	if err != nil {
		return nil, err
	}
	y, err := a.dateArg(name, args[1])
	if err != nil {
		return nil, err
	}
	return a.fn(name, tInt, []node{x, y}, strictRow(tInt, func(v []any) (any, *RowError) {
		return v[0].(int64) - v[1].(int64), nil
	})), nil
}

// datePart builds a function of a date returning an int computed from its
// civil year, month and day (and epoch day).
func datePart(f func(y, m, d int, days int64) int64) buildFunc {
	return func(a *analyzer, name string, args []node) (node, error) {
		x, err := a.dateArg(name, args[0])
		if err != nil {
			return nil, err
		}
		return a.fn(name, tInt, []node{x}, strictRow(tInt, func(v []any) (any, *RowError) {
			days := v[0].(int64)
			y, m, d := civil(days)
			return f(y, m, d, days), nil
		})), nil
	}
}

func yearOf(y, m, d int, _ int64) int64 { return int64(y) }

func monthOf(y, m, d int, _ int64) int64 { return int64(m) }

func dayOf(y, m, d int, _ int64) int64 { return int64(d) }

func quarterOf(y, m, d int, _ int64) int64 { return int64((m-1)/3 + 1) }

func dayOfYear(y, m, d int, days int64) int64 { return days - daysFromCivil(y, 1, 1) + 1 }

// dayOfWeek: 1 = Sunday ... 7 = Saturday; 1970-01-01 was a Thursday (5).
func dayOfWeek(y, m, d int, days int64) int64 { return ((days+4)%7+7)%7 + 1 }

func buildLastDay(a *analyzer, name string, args []node) (node, error) {
	x, err := a.dateArg(name, args[0])
	if err != nil {
		return nil, err
	}
	return a.fn(name, tDate, []node{x}, strictRow(tDate, func(v []any) (any, *RowError) {
		y, m, _ := civil(v[0].(int64))
		return daysFromCivil(y, m, daysInMonth(y, m)), nil
	})), nil
}

func buildAddMonths(a *analyzer, name string, args []node) (node, error) {
	x, err := a.dateArg(name, args[0])
	if err != nil {
		return nil, err
	}
	if !isIntegral(args[1].typ()) {
		return nil, mismatch(name, args[1], "integer")
	}
	n, _ := a.cast(args[1], tInt, false, false)
	return a.fn(name, tDate, []node{x, n}, strictRow(tDate, func(v []any) (any, *RowError) {
		// java.time LocalDate.plusMonths: clamp the day to the month's end.
		y, m, d := civil(v[0].(int64))
		total := int64(y)*12 + int64(m-1) + v[1].(int64)
		ny, nm := int(total/12), int(total%12)+1
		if total < 0 && total%12 != 0 {
			ny, nm = int(total/12)-1, int(total%12)+13
		}
		days := daysFromCivil(ny, nm, min(d, daysInMonth(ny, nm)))
		if days != int64(int32(days)) {
			// Spark's Math.toIntExact of the epoch day: ARITHMETIC_OVERFLOW
			// in both modes (checked: add_months(DATE '2000-01-01',
			// 214748364) in Spark 4.1.1).
			return nil, rowErr(classArithmetic, "ARITHMETIC_OVERFLOW", "integer overflow. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.")
		}
		return days, nil
	})), nil
}

func buildToDate(a *analyzer, name string, args []node) (node, error) {
	if len(args) == 1 {
		return a.dateArg(name, args[0])
	}
	x := args[0]
	switch {
	case x.typ().Kind == udf.Date, x.typ().Kind == udf.Timestamp:
		// Checked: the format is ignored for dates and timestamps.
		return a.dateArg(name, x)
	case x.typ().Kind == udf.String, isIntegral(x.typ()), isVoid(x.typ()):
	default:
		return nil, mismatch(name, x, "string or date")
	}
	l, ok := args[1].(*litNode)
	if !ok || l.t.Kind != udf.String && !isVoid(l.t) {
		return nil, &UnsupportedFunctionError{Name: "to_date with a non-constant format"}
	}
	if l.v == nil {
		return &litNode{t: tDate}, nil
	}
	parse, err := dateParser(l.v.(string))
	if err != nil {
		return nil, err
	}
	s, err := a.cast(x, tString, false, false)
	if err != nil {
		return nil, err
	}
	ansi := a.ansi
	return a.fn(name, tDate, []node{s}, strictRow(tDate, func(v []any) (any, *RowError) {
		str := v[0].(string)
		d, ok := parse(str)
		if !ok {
			if ansi {
				return nil, rowErr(classDateTime, "CANNOT_PARSE_TIMESTAMP", "Text '%s' could not be parsed. Use `try_to_date` to tolerate invalid input string and return NULL instead.", str)
			}
			return nil, nil
		}
		return d, nil
	})), nil
}

func buildDateFormat(a *analyzer, name string, args []node) (node, error) {
	x := args[0]
	switch x.typ().Kind {
	case udf.Date, udf.Timestamp, udf.String, "void":
	default:
		return nil, mismatch(name, x, "timestamp")
	}
	l, ok := args[1].(*litNode)
	if !ok || l.t.Kind != udf.String && !isVoid(l.t) {
		return nil, &UnsupportedFunctionError{Name: "date_format with a non-constant format"}
	}
	if l.v == nil {
		return &litNode{t: tString}, nil
	}
	f, upgrade, err := dateFormatter(l.v.(string))
	if err != nil {
		return nil, err
	}
	if upgrade {
		return a.fn(name, tString, nil, func(c *ctx, _ *fnNode) (*vec, error) {
			out := newVec(tString, c.n)
			e := rowErr(classUpgrade, "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION", "Fail to recognize %s pattern in the DateTimeFormatter.", quoteSQL(l.v.(string)))
			for i := 0; i < c.n; i++ {
				out.setErr(i, e)
			}
			return out, nil
		}), nil
	}
	ts, err := a.cast(x, tTS, false, false)
	if err != nil {
		return nil, err
	}
	loc := a.loc
	return a.fn(name, tString, []node{ts}, strictRow(tString, func(v []any) (any, *RowError) {
		return f(time.UnixMicro(v[0].(int64)).In(loc))
	})), nil
}

func buildTimestampLiteral(a *analyzer, op string, args []node) (node, error) {
	s := args[0].(*litNode).v.(string)
	v, ok, e := parseTimestamp(trimAll(s), a.loc)
	if e != nil || !ok {
		return nil, &SyntaxError{Msg: "cannot parse the TIMESTAMP value: " + s}
	}
	return &litNode{t: tTS, v: v}, nil
}
