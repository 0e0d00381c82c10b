// Package patch is what udfx writes into a repository and how: the text a
// SQL rewrite puts at each use site (a DataFrame call, a SQL string, an
// RDD chain's value), the unified diff a reviewer reads, applying the
// changes all or nothing through a journal, and the workspace folder with
// its lock. udfx rewrite writes with it; udfx verify derives the same use
// site text with it to check that the job runs what was proved, and so
// imports patch rather than the stage machine in harness/rewrite.
package patch
