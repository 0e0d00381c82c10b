package sparksql

import (
	"fmt"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// TypeBranch is the rewrite proved for one assignment of Spark types to
// the parameters no source types.
type TypeBranch struct {
	// Types has one type per parameter TypeGuard names, in its order.
	Types []*udf.Type
	SQL   string
}

// TypeGuard composes the rewrites proved per type into one expression
// that holds for those types and makes Spark reject every other:
//
//	CASE WHEN typeof(`x`) = 'double' THEN (…) WHEN typeof(`x`) = 'int' THEN (…)
//	ELSE raise_error('udfx: f was proved only for x of type double; int') END
//
// typeof depends on the column's type alone and Spark folds it, so the
// optimizer keeps one branch (or the raise_error) and the guard costs
// nothing per row; harness/spark's tests check that on real Spark. The
// text is a function of its arguments only, so verify composes it again
// from a record's branches and compares.
func TypeGuard(udfName string, params []string, branches []TypeBranch) (string, error) {
	if len(params) == 0 || len(branches) == 0 {
		return "", fmt.Errorf("a type guard needs parameters and branches")
	}
	var b strings.Builder
	b.WriteString("CASE")
	var sets []string
	for _, br := range branches {
		if len(br.Types) != len(params) {
			return "", fmt.Errorf("a branch of %s types %d parameters, the guard has %d", udfName, len(br.Types), len(params))
		}
		var conds, names []string
		for i, p := range params {
			if br.Types[i] == nil {
				return "", fmt.Errorf("a branch of %s leaves %s untyped", udfName, p)
			}
			lit, err := litSQL(stringLit(br.Types[i].String()))
			if err != nil {
				return "", err
			}
			conds = append(conds, "typeof("+quoteIdent(p)+") = "+lit)
			names = append(names, br.Types[i].String())
		}
		sets = append(sets, strings.Join(names, ", "))
		b.WriteString(" WHEN " + strings.Join(conds, " AND ") + " THEN (" + br.SQL + ")")
	}
	msg := fmt.Sprintf("udfx: %s was proved only for (%s) of types (%s)", udfName, strings.Join(params, ", "), strings.Join(sets, "); ("))
	lit, err := litSQL(stringLit(msg))
	if err != nil {
		return "", err
	}
	b.WriteString(" ELSE raise_error(" + lit + ") END")
	return b.String(), nil
}
