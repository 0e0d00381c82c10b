package rewrite

import "fmt"

// LockedError is a UDF's workspace held by another udfx run: two runs on
// one UDF would overwrite each other's inputs, evidence and reports.
type LockedError struct {
	Path string
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("another udfx run holds this UDF (%s): wait for it to finish", e.Path)
}
