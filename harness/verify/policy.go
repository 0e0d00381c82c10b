package verify

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/harness/config"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/sparkversion"
)

// DefaultRows is the fewest rows the gate re-runs, whatever the record
// claims: udfx rewrite's default.
const DefaultRows = 10_000

// ScheduleSeeds are udfx's own seeds: the gate re-runs the test with each
// of them beside the record's seed, so a record cannot pick the inputs it
// is checked on.
var ScheduleSeeds = []int64{1, 104729}

// seedsFor is the record's seed, then the schedule's other seeds.
func seedsFor(recordSeed int64) []int64 {
	seeds := []int64{recordSeed}
	for _, s := range ScheduleSeeds {
		if s != recordSeed {
			seeds = append(seeds, s)
		}
	}
	return seeds
}

// policy is what the project holds one UDF's rewrite to: bit-exact, ANSI
// on, errors compared, unless its udfx.yaml entry grants otherwise.
type policy struct {
	compare          value.Policy
	ansi             bool
	allowErrorToNull bool
	// grant is the udfx.yaml entry in force, nil when none.
	grant      *config.Relaxation
	configName string
	// stated is the ANSI mode the project states for its jobs (udfx.yaml's
	// spark: ansi:), statedFrom where; nil when it states none.
	stated     *bool
	statedFrom string
}

// policyFor is the policy rec is held to; decls are the Spark
// declarations nearest its original, declsErr why they cannot be read
// (sparkProblem's to report).
func (v *verifier) policyFor(repo string, rec *evidence.Record, decls []sparkversion.Declared, declsErr error) *policy {
	cfg := v.config
	// Entries name files from the repository root; the record, from the
	// folder holding its udfx-rewrites.
	file := rec.Original.File
	if repo != v.top {
		if r, err := filepath.Rel(v.top, filepath.Join(repo, filepath.FromSlash(file))); err == nil {
			file = filepath.ToSlash(r)
		}
	}
	// The record's Spark decides the mode it is held to (sparkProblem
	// holds that claim to the project's declaration).
	p := &policy{ansi: pyenv.DefaultANSI(recordSpark(rec)), configName: config.File}
	if declsErr == nil {
		if p.stated, p.statedFrom = sparkversion.DeclaredANSI(decls); p.stated != nil {
			p.ansi = *p.stated
		}
	}
	if cfg != nil && cfg.Path != "" {
		p.configName = cfg.Path
	}
	if r := cfg.For(rec.Original.Name, file); r != nil {
		p.grant = r
		p.compare = r.Policy()
		p.allowErrorToNull = r.AllowErrorToNull
		if r.ANSI != nil {
			p.ansi = *r.ANSI
		}
	}
	return p
}

// modeProblem says why the record's mode is not the one the project
// states for its jobs; empty when it is, or the project states none, or
// the UDF's own udfx.yaml entry sets the mode.
func (p *policy) modeProblem(rec *evidence.Record) string {
	if p.stated == nil || (p.grant != nil && p.grant.ANSI != nil) || rec.Engine.ANSI == *p.stated {
		return ""
	}
	return fmt.Sprintf("the rewrite is proved with ANSI %s, and the project states that its jobs run with ANSI %s (%s), where Spark's arithmetic, casts and errors differ: re-run udfx rewrite",
		onOff(rec.Engine.ANSI), onOff(*p.stated), p.statedFrom)
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// relaxations lists the relaxations in force (never nil).
func (p *policy) relaxations() []string {
	if p.grant == nil {
		return []string{}
	}
	return p.grant.Describe()
}

// undeclared lists what the record claims beyond what the policy grants.
func (p *policy) undeclared(rec *evidence.Record) []string {
	var out []string
	c := rec.Policy
	if c.ULP > p.compare.ULP {
		out = append(out, fmt.Sprintf("a tolerance of %d ulp", c.ULP))
	}
	if c.Rel > p.compare.Rel || c.Rel != c.Rel {
		out = append(out, fmt.Sprintf("a relative tolerance of %g", c.Rel))
	}
	if c.Abs > p.compare.Abs || c.Abs != c.Abs {
		out = append(out, fmt.Sprintf("an absolute tolerance of %g", c.Abs))
	}
	if c.ULP < 0 || c.Rel < 0 || c.Abs < 0 {
		out = append(out, "a negative tolerance")
	}
	if c.LenientSignedZero && !p.compare.LenientSignedZero {
		out = append(out, "-0.0 equal to 0.0")
	}
	if rec.AllowErrorToNull && !p.allowErrorToNull {
		out = append(out, "NULL accepted where the original throws")
	}
	// Against a mode the project states, modeProblem speaks.
	if !rec.Engine.ANSI && p.ansi && p.modeProblem(rec) == "" {
		out = append(out, "ANSI off")
	}
	return out
}

// describe says what a re-run is held to.
func (p *policy) describe(rows int, seeds []int64) string {
	ansi := "ANSI on"
	if !p.ansi {
		ansi = "ANSI off"
	}
	errs := "errors compared"
	if p.allowErrorToNull {
		errs = "NULL accepted for errors"
	}
	return fmt.Sprintf("%s, %s, %s; %d rows for each of seeds %s", p.compare, ansi, errs, rows, seedList(seeds))
}

// seedList writes seeds as "1, 104729".
func seedList(seeds []int64) string {
	ss := make([]string, len(seeds))
	for i, s := range seeds {
		ss[i] = fmt.Sprint(s)
	}
	return strings.Join(ss, ", ")
}
