package spark

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pooledStub is a session of p that was never started (no driver), as
// Pool.Start would have made it for cfg: the pool's bookkeeping is tested
// without paying for a SparkSession.
func pooledStub(t *testing.T, p *Pool, cfg Config) *Session {
	t.Helper()
	cfg, err := cfg.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	in, err := Find(context.Background(), cfg.Env, cfg.Dir, false)
	if err != nil {
		t.Fatal(err)
	}
	in = in.canonical()
	return &Session{cfg: cfg, in: in, jars: cfg.Jars, pool: p, poolKey: keyOf(&cfg, in)}
}

func TestPoolHandsAnIdleSessionToAnEquivalentConfig(t *testing.T) {
	ctx := context.Background()
	root := repoRoot(t)
	// Another checkout whose .venv links the same environment.
	other := t.TempDir()
	if err := os.Symlink(filepath.Join(root, ".venv"), filepath.Join(other, ".venv")); err != nil {
		t.Fatal(err)
	}
	p := &Pool{}
	// A session found from the other checkout runs from the real
	// environment: the checkout may be gone by the next command.
	viaLink := pooledStub(t, &Pool{}, Config{Dir: other, CacheDir: testCache})
	if got, want := filepath.Dir(viaLink.in.Python), filepath.Join(resolved(filepath.Join(root, ".venv")), "bin"); got != want {
		t.Errorf("the pooled session's Python is in %s, want %s", got, want)
	}
	if strings.HasPrefix(viaLink.in.Jars, other) {
		t.Errorf("the pooled session's Spark jars are under the checkout: %s", viaLink.in.Jars)
	}
	jar := filepath.Join(testCache, "a", "udf.jar")
	s := pooledStub(t, p, Config{ANSI: true, Dir: root, CacheDir: testCache, Jars: []string{jar}})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := p.Idle(); n != 1 {
		t.Fatalf("after Close (twice) %d sessions wait, want 1", n)
	}

	got, err := p.Start(ctx, Config{ANSI: true, Dir: other, CacheDir: testCache, Jars: []string{jar}, Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if got != s {
		t.Fatal("Start started a session where an equivalent one waited")
	}
	if n := p.Idle(); n != 0 {
		t.Fatalf("%d sessions wait while the only one is in use", n)
	}
	if err := got.Close(); err != nil {
		t.Fatal(err)
	}

	// A dead session is not taken back, and Pool.Close stops the rest.
	dead := pooledStub(t, p, Config{ANSI: true, Dir: root, CacheDir: testCache})
	dead.dead = &SessionError{Msg: "the driver process exited"}
	if err := dead.Close(); err != nil {
		t.Fatal(err)
	}
	if n := p.Idle(); n != 1 {
		t.Fatalf("%d sessions wait after a dead one was closed, want 1", n)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if n := p.Idle(); n != 0 {
		t.Fatalf("%d sessions wait in a closed pool", n)
	}
	if s.dead == nil {
		t.Fatal("Pool.Close left its idle session running")
	}
	if _, err := p.Start(ctx, Config{ANSI: true, Dir: root}); err == nil {
		t.Fatal("a closed pool started a session")
	}
}

// A session whose driver ended while it waited is stopped, not handed
// out: the next equivalent one is.
func TestPoolSkipsASessionWhoseDriverExited(t *testing.T) {
	root := repoRoot(t)
	p := &Pool{}
	cfg := Config{ANSI: true, Dir: root, CacheDir: testCache}
	healthy, exited := pooledStub(t, p, cfg), pooledStub(t, p, cfg)
	exited.done = make(chan struct{})
	close(exited.done)
	for _, s := range []*Session{healthy, exited} {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	got, err := p.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got != healthy {
		t.Fatal("Start handed out the session whose driver exited")
	}
	if exited.dead == nil || p.Idle() != 0 {
		t.Fatalf("the exited session should be stopped and gone: dead %v, %d idle", exited.dead, p.Idle())
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestPoolKeepsAtMostMaxIdleSessions(t *testing.T) {
	root := repoRoot(t)
	p := &Pool{MaxIdle: 2}
	var ss []*Session
	for _, master := range []string{"local[1]", "local[2]", "local[3]"} {
		ss = append(ss, pooledStub(t, p, Config{Master: master, Dir: root, CacheDir: testCache}))
	}
	for _, s := range ss {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if n := p.Idle(); n != 2 {
		t.Fatalf("%d sessions wait, want MaxIdle = 2", n)
	}
	if ss[0].dead == nil || ss[1].dead != nil || ss[2].dead != nil {
		t.Fatal("the least recently used session should have stopped, and only it")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

// Configs that would start another driver do not share one.
func TestPoolKeyTellsDriversApart(t *testing.T) {
	root := repoRoot(t)
	base := Config{ANSI: true, Dir: root, CacheDir: testCache, Conf: map[string]string{"spark.driver.memory": "1g"}}
	key := func(cfg Config) poolKey {
		t.Helper()
		cfg, err := cfg.withDefaults()
		if err != nil {
			t.Fatal(err)
		}
		in, err := Find(context.Background(), cfg.Env, cfg.Dir, false)
		if err != nil {
			t.Fatal(err)
		}
		return keyOf(&cfg, in.canonical())
	}
	want := key(base)
	if got := key(Config{ANSI: true, Dir: filepath.Join(root, "examples"), CacheDir: testCache, Conf: map[string]string{"spark.driver.memory": "1g"}}); got != want {
		t.Errorf("the same .venv found from a subfolder gives another key:\n%+v\n%+v", got, want)
	}
	for name, edit := range map[string]func(*Config){
		"master": func(c *Config) { c.Master = "local[1]" },
		"ansi":   func(c *Config) { c.ANSI = false },
		"conf":   func(c *Config) { c.Conf = map[string]string{"spark.driver.memory": "2g"} },
		"cache":  func(c *Config) { c.CacheDir = t.TempDir() },
		"comet":  func(c *Config) { c.Comet = "/opt/comet.jar" },
		"path": func(c *Config) {
			c.Env = func(k string) string {
				if k == "PATH" {
					return "/opt/other/bin:" + os.Getenv("PATH")
				}
				return os.Getenv(k)
			}
		},
	} {
		cfg := base
		edit(&cfg)
		if key(cfg) == want {
			t.Errorf("another %s, the same key", name)
		}
	}
	if !sameJars([]string{"a.jar", "b.jar"}, []string{"b.jar", "a.jar"}) || sameJars([]string{"a.jar"}, []string{"a.jar", "b.jar"}) {
		t.Error("sameJars compares jars as sets")
	}
}
