package spark

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Pool keeps Spark sessions running between the commands of one process,
// so that a process that runs many of them in turn (udfx's CLI tests, a
// long-running server) pays a SparkSession's start once per configuration
// instead of once per command.
//
// A session from Pool.Start goes back to the pool on Close, still running,
// unless it died; the next Start with an equivalent Config gets it. Two
// Configs are equivalent when they would start the same driver: the same
// master or Connect URL, ANSI default, jars, Comet jar, settings and cache, the same
// Python, Spark and Java once symbolic links are resolved (two checkouts
// linking the same .venv share sessions), and the same PATH, PYTHONPATH
// and SCALA_HOME. A session that restarted for a UDF's jar is handed out
// for Configs that list its jars now.
//
// A pooled session outlives the command that started it, so it does not
// use Config.Workspace: its log and job files lie in a temporary folder of
// its own, removed when it stops. Nothing of one command's jobs is
// visible to the next but what the driver keeps by design: imported Python
// modules (by absolute path) and registered JVM UDFs (by jar and shim).
type Pool struct {
	// MaxIdle is how many sessions may wait, running, for a next Start;
	// the least recently used one is stopped beyond it. 0 means 2.
	MaxIdle int

	mu     sync.Mutex
	idle   []*Session
	closed bool
}

// poolKey is what makes two Configs start the same driver, less the jars
// (compared as sets, see sameJars).
type poolKey struct {
	master, remote, conf, cacheDir string
	comet                          string
	ansi                           bool
	python, pythonPath, sparkHome  string
	sparkJars, javaHome            string
	path, pyPath, scalaHome        string
}

// Start returns an idle session of the pool equivalent to cfg, or starts
// one as spark.Start does (Config.Workspace aside). Close gives it back.
func (p *Pool) Start(ctx context.Context, cfg Config) (*Session, error) {
	cfg, in, err := prepare(ctx, cfg)
	if err != nil {
		return nil, err
	}
	// The session outlives the folder it was found from (a checkout
	// linking a shared .venv may be gone by the next command): it runs
	// from where Python and Spark really are.
	in = in.canonical()
	key := keyOf(&cfg, in)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, fmt.Errorf("spark: the session pool is closed")
	}
	var exited []*Session
	defer func() {
		for _, s := range exited {
			s.pool = nil
			s.Close()
		}
	}()
	for i := len(p.idle) - 1; i >= 0; i-- {
		s := p.idle[i]
		if s.poolKey != key || !sameJars(s.jars, cfg.Jars) {
			continue
		}
		p.idle = slices.Delete(p.idle, i, i+1)
		if s.driverExited() {
			// It died while it waited: no command saw it go.
			exited = append(exited, s)
			continue
		}
		p.mu.Unlock()
		s.mu.Lock()
		s.pooledIdle = false
		s.mu.Unlock()
		return s, nil
	}
	// An idle session on a cluster keeps its executors, and the cluster
	// has cores for so many applications: a new driver there could wait
	// for ever for the cores the idle ones hold (a folder run's Python
	// and JVM sessions on a small standalone cluster). The idle sessions
	// on the same master stop before a new one starts.
	var holding []*Session
	if onCluster(&cfg) {
		for i := len(p.idle) - 1; i >= 0; i-- {
			if s := p.idle[i]; s.poolKey.master == key.master && s.poolKey.remote == "" {
				p.idle = slices.Delete(p.idle, i, i+1)
				holding = append(holding, s)
			}
		}
	}
	p.mu.Unlock()
	for _, s := range holding {
		s.pool = nil
		s.Close()
	}
	cfg.Workspace = ""
	s, err := startOn(ctx, cfg, in)
	if err != nil {
		return nil, err
	}
	s.pool, s.poolKey = p, key
	return s, nil
}

// put takes s back, running, and says whether it did; a session that died
// is not taken. The least recently used sessions beyond MaxIdle stop
// before put returns.
func (p *Pool) put(s *Session) bool {
	p.mu.Lock()
	s.mu.Lock()
	if p.closed || s.dead != nil {
		s.mu.Unlock()
		p.mu.Unlock()
		return false
	}
	if s.pooledIdle {
		// Closed twice: it is already waiting.
		s.mu.Unlock()
		p.mu.Unlock()
		return true
	}
	s.pooledIdle = true
	s.mu.Unlock()
	p.idle = append(p.idle, s)
	max := p.MaxIdle
	if max <= 0 {
		max = 2
	}
	var evicted []*Session
	for len(p.idle) > max {
		evicted = append(evicted, p.idle[0])
		p.idle = p.idle[1:]
	}
	p.mu.Unlock()
	for _, old := range evicted {
		old.pool = nil
		old.Close()
	}
	return true
}

// driverExited says whether the driver process of a started session has
// ended.
func (s *Session) driverExited() bool {
	if s.done == nil {
		return false
	}
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Close stops every idle session and makes the sessions still in use stop
// on their Close. It returns the first error of a stop.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	var first error
	for _, s := range idle {
		s.pool = nil
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Idle is how many sessions wait in the pool.
func (p *Pool) Idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.idle)
}

// canonical is in with symbolic links resolved in its paths. The
// interpreter keeps its name in its resolved folder: a virtualenv's python
// is a link to the base interpreter, which would leave the virtualenv.
func (in *Install) canonical() *Install {
	c := *in
	c.Python = filepath.Join(resolved(filepath.Dir(in.Python)), filepath.Base(in.Python))
	c.PythonPath = nil
	for _, p := range in.PythonPath {
		c.PythonPath = append(c.PythonPath, resolved(p))
	}
	c.SparkHome, c.Jars, c.JavaHome = resolved(in.SparkHome), resolved(in.Jars), resolved(in.JavaHome)
	if in.Java != "" {
		c.Java = filepath.Join(resolved(filepath.Dir(in.Java)), filepath.Base(in.Java))
	}
	return &c
}

// keyOf is the pool's key of cfg on the canonical install in.
func keyOf(cfg *Config, in *Install) poolKey {
	var conf []string
	for k, v := range cfg.Conf {
		conf = append(conf, k+"="+v)
	}
	slices.Sort(conf)
	return poolKey{
		master: cfg.Master, remote: cfg.Remote, conf: strings.Join(conf, "\x00"), cacheDir: resolved(cfg.CacheDir),
		comet:  resolved(cfg.Comet),
		ansi:   cfg.ANSI,
		python: in.Python, pythonPath: strings.Join(in.PythonPath, "\x00"),
		sparkHome: in.SparkHome, sparkJars: in.Jars, javaHome: in.JavaHome,
		path: cfg.Env("PATH"), pyPath: cfg.Env("PYTHONPATH"), scalaHome: cfg.Env("SCALA_HOME"),
	}
}

// onCluster is whether cfg's driver runs its executors on a cluster's
// resources (a spark://, yarn or k8s master), not in its own JVM (local)
// nor through a Spark Connect server.
func onCluster(cfg *Config) bool {
	return cfg.Remote == "" && cfg.Master != "" && !strings.HasPrefix(cfg.Master, "local")
}

// resolved is p with symbolic links resolved, or p when that fails.
func resolved(p string) string {
	if p == "" {
		return ""
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func sameJars(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
