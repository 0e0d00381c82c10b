package progress

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestStepsCarryElapsedTime(t *testing.T) {
	var buf bytes.Buffer
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := []time.Time{t0, t0, t0.Add(1500 * time.Millisecond), t0.Add(83 * time.Second)}
	now := func() time.Time { c := clock[0]; clock = clock[1:]; return c }
	r := New(&buf, now)
	r.Step("compiling ToFahrenheit.scala with scalac")
	r.Step("starting a JVM")
	r.Step("starting a JVM") // repeated: not printed, no clock read
	r.Stepf("running the original on %d rows", 10000)
	assert.Equal(t, "udfx [   0.0s] compiling ToFahrenheit.scala with scalac\n"+
		"udfx [   1.5s] starting a JVM\n"+
		"udfx [  83.0s] running the original on 10000 rows\n", buf.String())
}

func TestNilReporterIsSilent(t *testing.T) {
	var r *Reporter
	r.Step("x")
	r.Stepf("%d", 1)
	assert.Nil(t, r.Func())
}
