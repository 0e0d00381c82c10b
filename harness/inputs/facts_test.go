package inputs

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // DST rules without relying on the host's zoneinfo

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testdata/spark_facts.txt was printed by testdata/spark_facts.py running
// real Apache Spark (its first line names the version). The calendar
// constants and special dates/timestamps must agree with it.
func TestCalendarAgreesWithSpark(t *testing.T) {
	f, err := os.Open("testdata/spark_facts.txt")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	checked := 0
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		switch fs[0] {
		case "spark_version":
			assert.True(t, strings.HasPrefix(fs[1], "4."), "facts come from Spark 4")
		case "date":
			n, err := strconv.ParseInt(fs[2], 10, 64)
			require.NoError(t, err)
			assert.Contains(t, dateSpecialDays, n, "date %s", fs[1])
			d, err := time.Parse("2006-01-02", fs[1])
			require.NoError(t, err)
			assert.Equal(t, n, d.Unix()/86400, "Go's proleptic Gregorian calendar agrees on %s", fs[1])
			checked++
		case "timestamp", "local":
			n, err := strconv.ParseInt(fs[len(fs)-1], 10, 64)
			require.NoError(t, err)
			assert.Contains(t, timestampSpecialMicros, n, "%s", sc.Text())
			checked++
		case "map_null_key", "map_dup_key", "map_signed_zero_keys", "map_nan_keys":
			// Each is an error in Spark: mapKeys and checkMapKey keep
			// generated and sampled maps clear of them.
			assert.True(t, strings.HasPrefix(fs[1], "error:"), "%s", sc.Text())
			checked++
		}
	}
	require.NoError(t, sc.Err())
	assert.Equal(t, 25, checked)
	assert.Equal(t, minDate, slices.Min(dateSpecialDays))
	assert.Equal(t, maxDate, slices.Max(dateSpecialDays))
	assert.Equal(t, minTimestamp, slices.Min(timestampSpecialMicros))
	assert.Equal(t, maxTimestamp, slices.Max(timestampSpecialMicros))
}

// Every special date is the day its comment names, and the DST instants
// are where the zones' offsets change (Go's embedded tzdata).
func TestDSTInstants(t *testing.T) {
	for _, tc := range []struct {
		zone         string
		spring, fall int64 // seconds: the UTC instant of the jump
	}{
		{"America/Los_Angeles", 1710064800, 1730624400},
		{"Europe/Berlin", 1711846800, 1729990800},
	} {
		loc, err := time.LoadLocation(tc.zone)
		require.NoError(t, err)
		for _, at := range []int64{tc.spring, tc.fall} {
			_, before := time.Unix(at-1, 0).In(loc).Zone()
			_, after := time.Unix(at, 0).In(loc).Zone()
			assert.NotEqual(t, before, after, "%s offset changes at %d", tc.zone, at)
			assert.Contains(t, timestampSpecialMicros, at*1_000_000)
		}
		// The hour before the fall-back instant is repeated in local time.
		early := time.Unix(tc.fall-1800, 0).In(loc)
		late := time.Unix(tc.fall+1800, 0).In(loc)
		assert.Equal(t, early.Format("15:04"), late.Format("15:04"), "%s repeats its wall clock", tc.zone)
		assert.Contains(t, timestampSpecialMicros, (tc.fall-1800)*1_000_000)
		assert.Contains(t, timestampSpecialMicros, (tc.fall+1800)*1_000_000)
	}
}
