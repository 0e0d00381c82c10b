package engine

import "regexp"

type regexpT = regexp.Regexp

func compileRegexp(s string) (*regexp.Regexp, error) { return regexp.Compile(s) }

func quoteRune(r rune) string { return regexp.QuoteMeta(string(r)) }
