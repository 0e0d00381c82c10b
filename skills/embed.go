// Package skills embeds the SKILL.md of each rewrite stage, so that udfx's
// own agents read the same instructions as an outside agent.
package skills

import "embed"

// FS holds <stage>/SKILL.md for each stage.
//
//go:embed */SKILL.md
var FS embed.FS
