package rewrite

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOnlyAJudgedCandidateIsNotTestedAgain(t *testing.T) {
	c := Candidate{Target: TargetSQL, SQL: "celsius * 1.8D + 32.0D"}
	// A test that ended in an error (the runner died) left no verdict.
	o := &Outcome{Tried: []*Tried{{Index: 1, Candidate: c}}}
	assert.Nil(t, o.judged(c), "no verdict: the candidate must be tested again")

	o.Tried[0].Reason = "refuted: differs on 3 of 100 rows"
	assert.Same(t, o.Tried[0], o.judged(c))
	assert.Nil(t, o.judged(Candidate{Target: TargetCUDA, SQL: c.SQL}), "same SQL, another target")
}
