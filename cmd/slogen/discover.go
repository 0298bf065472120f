package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/internal/discover"
	"github.com/slogen-dev/slogen/internal/outdir"
	"github.com/slogen-dev/slogen/internal/spec"
)

// readHost reads the GPUs; tests replace it.
var readHost = discover.Read

func newDiscover() *cobra.Command {
	var form, file, service string
	cmd := &cobra.Command{
		Use:   "discover [--format cue|yaml|json] [--write FILE --service NAME]",
		Short: "Read this host's NVIDIA GPUs through NVML and print a spec's gpu block",
		Long: `Discover asks the NVIDIA driver (NVML) for this host's GPUs: their product
name, memory, UUID and compute capability, MIG mode and instances, and the
driver and CUDA versions. It prints them as a spec's gpu block, in CUE unless
--format says otherwise.

With --write FILE --service NAME it replaces that service's gpu block in a
.cue or .yaml spec, or adds one, and leaves the rest of the file as it was.

It exits 1 when there is no NVIDIA driver library, no driver or no GPU.`,
		Example: `  slogen discover
  slogen discover --format yaml
  slogen discover --write specs/chat.cue --service chat-llama`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (file == "") != (service == "") {
				return fail(exitBadSpec, errors.New("--write and --service go together: the file to update and the service in it"))
			}
			if !slices.Contains(discover.Formats, form) {
				return failf(exitBadSpec, "--format must be one of %s, not %q", strings.Join(discover.Formats, ", "), form)
			}
			block, err := discoverBlock(cmd)
			if err != nil {
				return err
			}
			if file != "" {
				return writeBlock(cmd, file, service, block)
			}
			out, err := discover.Encode(block, form)
			if err != nil {
				return fail(exitFailed, err)
			}
			_, err = cmd.OutOrStdout().Write(out)
			return err
		},
	}
	cmd.Flags().StringVar(&form, "format", "cue", "output format: cue, yaml or json")
	cmd.Flags().StringVar(&file, "write", "", "spec file (.cue, .yaml) whose service's gpu block to replace")
	cmd.Flags().StringVar(&service, "service", "", "the service in --write's file")
	return cmd
}

func discoverBlock(cmd *cobra.Command) (discover.Block, error) {
	h, warnings, err := readHost()
	if err != nil {
		return discover.Block{}, failf(exitFailed, "discover: %w", err)
	}
	block, more := discover.NewBlock(h)
	for _, w := range append(warnings, more...) {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
	}
	return block, nil
}

// writeBlock updates the spec file. A spec that loaded before must load
// after; one that did not is updated all the same, with a warning.
func writeBlock(cmd *cobra.Command, file, service string, block discover.Block) error {
	src, err := os.ReadFile(file)
	if err != nil {
		return fail(exitFailed, err)
	}
	out, err := discover.Update(file, src, service, block)
	if err != nil {
		return fail(exitBadSpec, err)
	}
	if _, before := spec.LoadSources(spec.Source{Name: file, Data: src}); before != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s did not load before the update either:\n%v\n", file, before)
	} else if _, after := spec.LoadSources(spec.Source{Name: file, Data: out}); after != nil {
		return failf(exitFailed, "the updated %s would not load, so it was left as it was (a bug; please report it):\n%v", file, after)
	}
	if err := outdir.WriteFile(file, out); err != nil {
		return fail(exitFailed, err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "updated the gpu block of %s in %s: %d × %s\n", service, file, block.Count, block.Product)
	return nil
}
