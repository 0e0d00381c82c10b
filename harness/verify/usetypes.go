package verify

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/typeinfer"
)

// fromUse are the type sources read from where the job applies the UDF:
// once --apply replaced those call sites, the file alone no longer gives
// the type, and the record fills it in.
var fromUse = map[string]bool{udf.TypeFromSchema: true, udf.TypeFromDataflow: true, udf.TypeFromCast: true}

// useTypesDrift re-derives, from the job as it is now, the types the
// record read from use. Each recorded use site in the UDF's file is put
// back to the call it replaced, the UDF is found there again and its types
// resolved as udfx rewrite resolved them. A parameter whose type now
// differs, or no longer follows from the job, makes the UDF stale: the
// proof was for a column the job no longer has (a schema edited after
// --apply would otherwise pass with the record's type). "" when every such
// type still holds, or when a site is not where the record says (the
// use-site check reports that).
func useTypesDrift(fe udf.Frontend, u *udf.UDF, src []byte, rec *evidence.Record, open []string) string {
	check := map[string]string{}
	for _, ts := range rec.TypeSources {
		for _, name := range open {
			if ts.Name == name && fromUse[ts.Source] {
				check[name] = ts.Type
			}
		}
	}
	if len(check) == 0 {
		return ""
	}
	type site struct {
		off      int
		old, new string
	}
	var sites []site
	lines := udf.NewLines(src)
	for _, s := range rec.UseSites {
		if s.File != rec.Original.File {
			continue
		}
		off, ok := lines.Offset(s.Span.Start)
		if !ok || !bytes.HasPrefix(src[off:], []byte(s.New)) {
			return ""
		}
		sites = append(sites, site{off, s.Old, s.New})
	}
	sort.Slice(sites, func(i, j int) bool { return sites[i].off > sites[j].off })
	pre := append([]byte(nil), src...)
	for i, s := range sites {
		if i > 0 && s.off+len(s.new) > sites[i-1].off {
			return "" // overlapping sites: the use-site check says why
		}
		pre = append(pre[:s.off], append([]byte(s.old), pre[s.off+len(s.new):]...)...)
	}
	us, err := fe.Parse(rec.Original.File, pre)
	if err != nil {
		return fmt.Sprintf("the UDF changed: %s with its use sites as they were before --apply does not parse: %v", rec.Original.File, err)
	}
	again := udf.Lookup(us, u.Name)
	if again == nil {
		return fmt.Sprintf("the UDF changed: %s with its use sites as they were before --apply no longer defines %s", rec.Original.File, u.Name)
	}
	again.Root = u.Root
	_ = typeinfer.Resolve(again, pre, typeinfer.Options{})
	for _, p := range again.Params {
		want, ok := check[p.Name]
		if !ok {
			continue
		}
		if p.Type == nil {
			return fmt.Sprintf("the UDF changed: the job no longer shows the type of %s's column (the record was proved for %s %s, read from where the job applied %s)",
				p.Name, p.Name, want, u.Name)
		}
		if p.Type.String() != want {
			where := ""
			for _, ts := range again.TypeSources {
				if ts.Name == p.Name && ts.Detail != "" {
					where = " (" + ts.Detail + ")"
				}
			}
			return fmt.Sprintf("the UDF changed: the job now gives %s the type %s%s; the record was proved for %s", p.Name, p.Type, where, want)
		}
	}
	return ""
}
