package main

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/udfx/udfx/harness/bench"
)

const (
	engineEmbedded = "embedded"
	engineSpark    = "spark"
)

// sparkOptions choose the engine and, for Spark, where it runs.
type sparkOptions struct {
	engine string
	master string
	remote string
}

func addSparkFlags(f *pflag.FlagSet, o *sparkOptions) {
	f.StringVar(&o.engine, "engine", engineEmbedded, "where to run: embedded (udfx's engine) or spark (real Apache Spark)")
	f.StringVar(&o.master, "spark-master", "", "with --engine spark: the master (default local[2]; spark://host:port, yarn, k8s://...)")
	f.StringVar(&o.remote, "spark-remote", "", "with --engine spark: a Spark Connect server (sc://host:port) instead of a master")
}

func (o *sparkOptions) check() error {
	switch o.engine {
	case engineEmbedded:
		if o.master != "" || o.remote != "" {
			return usageErrorf("--spark-master and --spark-remote need --engine spark")
		}
	case engineSpark:
		if o.master != "" && o.remote != "" {
			return usageErrorf("give one of --spark-master and --spark-remote, not both")
		}
	default:
		return usageErrorf("unknown --engine %q: want embedded or spark", o.engine)
	}
	return nil
}

func benchOnSpark(context.Context, *env, *sparkOptions, bench.Options) (*bench.Result, error) {
	return nil, usageErrorf("--engine spark is not available in this build")
}

func sparkError(err error) error { return internalError(err) }
