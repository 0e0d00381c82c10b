package inputs

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// WriteIPC writes rec to path as an Arrow IPC file (the random-access
// "Feather v2" format), uncompressed so that the bytes depend only on
// the batch. It writes a temporary file in the same folder and renames
// it, so a reader never sees half a file and a failed write leaves any
// earlier file in place.
func WriteIPC(path string, rec arrow.RecordBatch) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(rec.Schema()))
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := w.Write(rec); err != nil {
		w.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReadIPC reads an Arrow IPC file written by WriteIPC (or any IPC file:
// several batches are concatenated into one). The caller releases the
// batch.
func ReadIPC(path string, mem memory.Allocator) (arrow.RecordBatch, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("read %s: not an Arrow IPC file: %w", path, err)
	}
	defer r.Close()
	var recs []arrow.RecordBatch
	defer func() {
		for _, rec := range recs {
			rec.Release()
		}
	}()
	for i := range r.NumRecords() {
		rec, err := r.RecordBatchAt(i)
		if err != nil {
			return nil, fmt.Errorf("read %s: batch %d: %w", path, i, err)
		}
		recs = append(recs, rec)
	}
	rec, err := concatBatches(r.Schema(), recs, mem)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return rec, nil
}

// concatBatches joins batches of one schema into one batch.
func concatBatches(schema *arrow.Schema, recs []arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	if len(recs) == 1 {
		recs[0].Retain()
		return recs[0], nil
	}
	cols := make([]arrow.Array, schema.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	var rows int64
	for _, rec := range recs {
		rows += rec.NumRows()
	}
	for i := range cols {
		parts := make([]arrow.Array, len(recs))
		for j, rec := range recs {
			parts[j] = rec.Column(i)
		}
		var err error
		if len(parts) == 0 {
			b := array.NewBuilder(mem, schema.Field(i).Type)
			cols[i] = b.NewArray()
			b.Release()
			continue
		}
		if cols[i], err = array.Concatenate(parts, mem); err != nil {
			return nil, fmt.Errorf("column %q: %w", schema.Field(i).Name, err)
		}
	}
	return array.NewRecordBatch(schema, cols, rows), nil
}
