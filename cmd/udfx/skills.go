package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/udfx/udfx/harness/skills"
)

func newSkillsCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skills",
		Short: "List, show, validate and install udfx's skills for coding agents",
		Long: `udfx ships one skill per rewrite stage (scaffold, convert, benchmark,
optimize) in the Agent Skills format (https://agentskills.io): a folder with
a SKILL.md whose front matter names the skill and says when to use it, and
whose body tells an agent which udfx commands are its tools and what
evidence the stage must leave. udfx's own agent reads the same files.

  udfx skills list                 the skills, one line each
  udfx skills show NAME            print a skill's SKILL.md
  udfx skills install DIR          write each skill as DIR/<name>/SKILL.md,
                                   for agents that read skills from DIR
  udfx skills validate DIR         check skill folders against the format`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unknown command %q for \"udfx skills\": want list, show, install or validate", args[0])
			}
			return cmd.Help()
		},
	}
	cmd.AddCommand(newSkillsListCmd(e), newSkillsShowCmd(e), newSkillsInstallCmd(e), newSkillsValidateCmd(e))
	return cmd
}

func builtinSkills() ([]*skills.Skill, error) {
	ss, err := skills.Builtin()
	if err != nil {
		// The skills are compiled in: a broken one is udfx's own fault.
		return nil, internalError(err)
	}
	return ss, nil
}

func newSkillsListCmd(e *env) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List udfx's skills",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if format != "table" && format != "json" {
				return usageErrorf("unknown --format %q: want table or json", format)
			}
			ss, err := builtinSkills()
			if err != nil {
				return err
			}
			if format == "json" {
				doc := struct {
					Skills []*skills.Skill `json:"skills"`
				}{ss}
				b, err := json.MarshalIndent(doc, "", "  ")
				if err != nil {
					return internalError(err)
				}
				_, err = fmt.Fprintf(e.Stdout, "%s\n", b)
				return err
			}
			tw := tabwriter.NewWriter(e.Stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tDESCRIPTION")
			for _, s := range ss {
				fmt.Fprintf(tw, "%s\t%s\n", s.Name, s.Description)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "table", "output format: table or json")
	return cmd
}

func newSkillsShowCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Print a skill's SKILL.md",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			ss, err := builtinSkills()
			if err != nil {
				return err
			}
			s, err := pickSkill(ss, args[0])
			if err != nil {
				return err
			}
			_, err = e.Stdout.Write(s.Source())
			return err
		},
	}
}

func pickSkill(ss []*skills.Skill, name string) (*skills.Skill, error) {
	var names []string
	for _, s := range ss {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return nil, usageErrorf("no skill named %q (udfx has %s)", name, strings.Join(names, ", "))
}

func newSkillsInstallCmd(e *env) *cobra.Command {
	var force bool
	var format string
	cmd := &cobra.Command{
		Use:   "install DIR [NAME...]",
		Short: "Write udfx's skills as DIR/<name>/SKILL.md",
		Long: `Install writes each skill (or only those named) as a folder DIR/<name>/
holding its SKILL.md, creating DIR when needed: point DIR at the folder your
agent reads skills from (for example .claude/skills or .github/skills).

Every skill is validated and every existing folder compared before anything
is written. A folder already holding exactly the skill is left alone; one
holding anything else (an edited or older copy, another skill of that name)
is refused unless --force, which replaces the folder whole. Each folder is
written to a temporary folder beside it and renamed into place, and a
failure undoes the folders already swapped in, so DIR never holds a
partial folder.

Exit codes: 0 installed or already there, 2 bad usage or a different
folder in the way (without --force), 3 a write failed.`,
		Example: `  udfx skills install .claude/skills
  udfx skills install ~/.agents/skills convert --force`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageErrorf("unknown --format %q: want text or json", format)
			}
			ss, err := builtinSkills()
			if err != nil {
				return err
			}
			if len(args) > 1 {
				var picked []*skills.Skill
				for _, name := range args[1:] {
					s, err := pickSkill(ss, name)
					if err != nil {
						return err
					}
					picked = append(picked, s)
				}
				ss = picked
			}
			dir := e.abs(args[0])
			res, err := skills.Install(dir, ss, force)
			if err != nil {
				var ce *skills.ConflictError
				if errors.As(err, &ce) {
					ce.Dir = args[0]
					return usageError(err)
				}
				return internalError(err)
			}
			for i := range res {
				res[i].Path = filepath.ToSlash(filepath.Join(args[0], res[i].Name))
			}
			if format == "json" {
				doc := struct {
					Dir    string             `json:"dir"`
					Skills []skills.Installed `json:"skills"`
				}{args[0], res}
				b, err := json.MarshalIndent(doc, "", "  ")
				if err != nil {
					return internalError(err)
				}
				_, err = fmt.Fprintf(e.Stdout, "%s\n", b)
				return err
			}
			tw := tabwriter.NewWriter(e.Stdout, 0, 0, 2, ' ', 0)
			for _, r := range res {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Status, r.Name, path.Join(r.Path, skills.FileName))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "replace skill folders that differ")
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: text or json")
	return cmd
}

func newSkillsValidateCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "validate DIR",
		Short: "Check skill folders against the Agent Skills format",
		Long: `Validate checks DIR, a skill folder (holding SKILL.md) or a folder of skill
folders: the front matter must open and close with "---" lines and hold
name (1-64 lowercase letters, digits and single hyphens, not at either end,
equal to the folder's name) and description (1-1024 characters), and may
hold license, compatibility (at most 500 characters), metadata (strings to
strings) and allowed-tools; no other field. Each problem is printed as
FILE:LINE: message.

Exit codes: 0 every skill is valid, 1 a skill breaks a rule, 2 DIR holds no
skill.`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return runSkillsValidate(e, args[0])
		},
	}
}

func runSkillsValidate(e *env, dir string) error {
	abs := e.abs(dir)
	st, err := os.Stat(abs)
	if err != nil {
		return usageErrorf("%s: %w", dir, err)
	}
	if !st.IsDir() {
		return usageErrorf("%s is not a folder", dir)
	}
	var ss []*skills.Skill
	display := filepath.ToSlash(filepath.Clean(dir))
	if _, serr := os.Stat(filepath.Join(abs, skills.FileName)); serr == nil {
		var s *skills.Skill
		s, err = skills.LoadFolder(os.DirFS(filepath.Dir(abs)), filepath.Base(abs), display)
		ss = []*skills.Skill{s}
	} else {
		ss, err = skills.Load(os.DirFS(abs), display)
	}
	var ve *skills.ValidationError
	switch {
	case errors.As(err, &ve):
		for _, p := range ve.Problems {
			fmt.Fprintln(e.Stdout, p.Error())
		}
		return &exitError{code: exitFailed, err: fmt.Errorf("%d %s in %s", len(ve.Problems), skillsPlural(len(ve.Problems), "problem", "problems"), dir)}
	case err != nil:
		return internalError(err)
	case len(ss) == 0:
		return usageErrorf("%s holds no skill: no SKILL.md in it or in a folder directly below it", dir)
	}
	for _, s := range ss {
		fmt.Fprintf(e.Stdout, "ok  %s  %s\n", s.Name, s.Path)
	}
	return nil
}

func skillsPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
