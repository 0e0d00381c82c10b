package verify

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/udfx/udfx/harness/evidence"
)

// checkArtifacts checks each jar the record lists (the RapidsUDF classes
// and the CUDA library compiled from its columnar and cuda files) where it
// is present: its sha256 and that of every entry must be the recorded
// ones. The jar lies in the .udfx workspace, outside version control, so
// a checkout without it is not stale: the detail says it was not checked.
// A stale jar marks its targets' items stale-rewrite.
func (v *verifier) checkArtifacts(repo string, rec *evidence.Record, items []Item) {
	for _, a := range rec.Artifacts {
		problem, present := checkArtifact(filepath.Join(repo, filepath.FromSlash(a.Path)), a)
		for i := range items {
			if items[i].Status != Pass || !contains(a.Targets, items[i].Target) {
				continue
			}
			switch {
			case problem != "":
				items[i].Status, items[i].Detail = StaleRewrite, problem
			case !present:
				items[i].artifactNote = fmt.Sprintf("its jar %s is not here (udfx rewrite builds it), so its hashes were not checked", a.Path)
			default:
				items[i].artifactNote = fmt.Sprintf("its jar %s matches the record (%d entries)", a.Path, len(a.Entries))
			}
		}
	}
}

// checkArtifact returns a problem when the jar at abs differs from a;
// present is false when there is no jar.
func checkArtifact(abs string, a evidence.Artifact) (problem string, present bool) {
	b, err := os.ReadFile(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil {
		return fmt.Sprintf("read the RapidsUDF jar %s: %v", a.Path, err), true
	}
	if got := evidence.SHA256(b); got != a.SHA256 {
		return fmt.Sprintf("the RapidsUDF jar %s changed: sha256 %s, the record has %s", a.Path, short(got), short(a.SHA256)), true
	}
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return fmt.Sprintf("the RapidsUDF jar %s is not a jar: %v", a.Path, err), true
	}
	got := map[string]string{}
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			return fmt.Sprintf("the RapidsUDF jar %s: %s: %v", a.Path, f.Name, err), true
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return fmt.Sprintf("the RapidsUDF jar %s: %s: %v", a.Path, f.Name, err), true
		}
		got[f.Name] = evidence.SHA256(data)
	}
	if len(got) != len(a.Entries) {
		return fmt.Sprintf("the RapidsUDF jar %s holds %d entries, the record lists %d", a.Path, len(got), len(a.Entries)), true
	}
	for _, e := range a.Entries {
		if got[e.Path] != e.SHA256 {
			return fmt.Sprintf("the RapidsUDF jar %s: %s does not hash as recorded", a.Path, e.Path), true
		}
	}
	return "", true
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
