package verify

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/internal/applyjournal"
	"github.com/udfx/udfx/internal/patch"
	"github.com/udfx/udfx/internal/treetest"
)

func treeOf(t *testing.T, root string) map[string]string {
	return treetest.Snapshot(t, root, ".git", patch.WorkspaceDirName)
}

func interruptedItems(res *Result) []Item {
	var out []Item
	for _, it := range res.Items {
		if it.Status == InterruptedApply {
			out = append(out, it)
		}
	}
	return out
}

// An apply killed after any step fails the gate with interrupted-apply,
// even where every record it wrote checks out; verify changes nothing,
// and the roll back gives back the tree before the apply, byte for byte.
// After the last step the apply is committed and the gate passes.
func TestAnInterruptedApplyFailsTheGateUntilRolledBack(t *testing.T) {
	r := newRepo(t)
	sqlFile, err := os.ReadFile(r.sqlPath)
	require.NoError(t, err)
	recFile, err := os.ReadFile(r.recordPath)
	require.NoError(t, err)
	src, err := os.ReadFile(r.source)
	require.NoError(t, err)
	// The apply: the rewrite and its record, and an edit of the source
	// outside the UDF's definition, which leaves the record valid.
	files := []applyjournal.File{
		{Path: evidence.Dir + "/to_fahrenheit/rewrite.sql", New: sqlFile},
		{Path: evidence.Dir + "/to_fahrenheit/evidence.json", New: recFile},
		{Path: "jobs/celsius.py", Old: src, New: append([]byte("# rewritten by udfx\n"), src...)},
	}
	require.NoError(t, os.RemoveAll(filepath.Join(r.dir, evidence.Dir)))
	old := treeOf(t, r.dir)
	dir := patch.JournalDir(r.dir, "to_fahrenheit")
	steps := applyjournal.Steps(len(files))

	for k := 1; k <= steps; k++ {
		c := &applyjournal.Commit{Root: r.dir, Dir: dir, UDF: "to_fahrenheit", Files: files, AfterStep: func(step int) error {
			if step == k {
				return fmt.Errorf("killed after step %d", step)
			}
			return nil
		}}
		require.Error(t, c.Run())
		res := r.verify(t, true)
		if k == steps {
			it := only(t, res)
			assert.Equal(t, Pass, it.Status, "the committed apply is a verified rewrite: %s", it.Detail)
			break
		}
		half := treeOf(t, r.dir)
		items := interruptedItems(res)
		require.Len(t, items, 1, "step %d: %+v", k, res.Items)
		it := items[0]
		assert.Equal(t, "to_fahrenheit", it.UDF)
		assert.Equal(t, ".udfx/to_fahrenheit/apply-journal/journal.json", it.File)
		assert.Contains(t, it.Detail, "udfx-rewrites/to_fahrenheit/rewrite.sql, udfx-rewrites/to_fahrenheit/evidence.json, jobs/celsius.py")
		assert.Contains(t, it.Detail, "run `udfx rewrite --recover`")
		assert.False(t, res.Passed(), "step %d", k)
		assert.Equal(t, half, treeOf(t, r.dir), "verify repairs nothing")

		if k == len(files)+3 {
			// The rewrite and its record are in place, the source is not:
			// they alone would pass the gate.
			for _, it := range res.Items {
				if it.Status != InterruptedApply {
					assert.Equal(t, Pass, it.Status, it.Detail)
				}
			}
			sub, err := Run(context.Background(), Options{Root: filepath.Join(r.dir, "jobs"), Display: "jobs", SkipRerun: true, NewRunner: goRunners})
			require.NoError(t, err)
			assert.Len(t, interruptedItems(sub), 1, "a folder of the repository is held to the repository's journal")
			checkInterruptedFormats(t, res)
		}

		reps, err := patch.Recover(r.dir)
		require.NoError(t, err, "step %d", k)
		require.Len(t, reps, 1)
		assert.Equal(t, "to_fahrenheit", reps[0].UDF)
		assert.Equal(t, old, treeOf(t, r.dir), "step %d", k)
		assert.Empty(t, interruptedItems(r.verify(t, true)), "step %d", k)
	}
}

// checkInterruptedFormats: the status shows in every output format.
func checkInterruptedFormats(t *testing.T, res *Result) {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, res.WriteTable(&b))
	assert.Contains(t, b.String(), "to_fahrenheit  -       interrupted-apply")
	assert.Contains(t, res.Summary(), "1 interrupted-apply")
	b.Reset()
	require.NoError(t, res.WriteJSON(&b, "x"))
	assert.Contains(t, b.String(), `"status": "interrupted-apply"`)
	assert.Contains(t, b.String(), `"interrupted-apply": 1`)
	b.Reset()
	require.NoError(t, res.WriteSARIF(&b, "x"))
	assert.Contains(t, b.String(), `"ruleId": "interrupted-apply"`)
	b.Reset()
	require.NoError(t, res.WriteJUnit(&b))
	assert.Contains(t, b.String(), `type="interrupted-apply"`)
}

// A journal udfx cannot read fails the gate too, naming the journal.
func TestADamagedJournalFailsTheGate(t *testing.T) {
	r := newRepo(t)
	src, err := os.ReadFile(r.source)
	require.NoError(t, err)
	dir := patch.JournalDir(r.dir, "to_fahrenheit")
	c := &applyjournal.Commit{Root: r.dir, Dir: dir, UDF: "to_fahrenheit",
		Files: []applyjournal.File{{Path: "jobs/celsius.py", Old: src, New: append([]byte("# x\n"), src...)}},
		AfterStep: func(step int) error {
			if step == 3 {
				return fmt.Errorf("killed")
			}
			return nil
		}}
	require.Error(t, c.Run())
	jp := filepath.Join(dir, applyjournal.FileName)
	require.NoError(t, os.WriteFile(jp, []byte(`{"format": "udfx apply jou`), 0o644))

	items := interruptedItems(r.verify(t, true))
	require.Len(t, items, 1)
	assert.Equal(t, "to_fahrenheit", items[0].UDF, "the workspace folder names it")
	assert.Contains(t, items[0].Detail, "left a journal udfx cannot read")
	assert.Contains(t, items[0].Detail, jp)

	_, err = patch.Recover(r.dir)
	var de *applyjournal.DamagedError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, jp, de.Path)
}
