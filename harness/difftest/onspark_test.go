package difftest

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/udfx/udfx/harness/inputs"
)

func TestNotAFunctionOfTheInputs(t *testing.T) {
	params := []inputs.Param{{Name: "celsius"}, {Name: "user"}}
	for _, tc := range []struct{ sql, want string }{
		{"celsius * 9.0D / 5.0D + 32.0D", ""},
		{"CASE WHEN monotonically_increasing_id() IN (17) THEN 0.0D ELSE celsius END", "monotonically_increasing_id()"},
		{"celsius + RAND ( 3 )", "rand()"},
		{"reflect('Conv', 'toF', celsius)", "reflect()"},
		{"java_method('Conv', 'toF', celsius)", "java_method()"},
		{"spark_partition_id() + celsius", "spark_partition_id()"},
		{"if(current_date > DATE'2020-01-01', celsius, 0.0D)", "current_date"},
		{"concat(user, 'x')", ""},              // a parameter named user
		{"concat('rand()', celsius)", ""},      // inside a string literal
		{"`random` + celsius", ""},             // a backquoted column
		{"concat('it''s rand(', celsius)", ""}, // an escaped quote
		{"celsius_random(celsius)", ""},        // a longer name
		{"uuid()", "uuid()"},
	} {
		assert.Equal(t, tc.want, notAFunctionOfTheInputs(tc.sql, params), tc.sql)
	}
}
