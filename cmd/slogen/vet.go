package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/generate/gputests"
	"github.com/slogen-dev/slogen/internal/spec"
)

func newVet() *cobra.Command {
	return &cobra.Command{
		Use:   "vet SPEC...",
		Short: "Validate spec files and explain what slogen will and will not generate",
		Long: `Vet checks the spec files as build does and prints every warning: tiers that
cannot fire at a low objective, SLOs whose alerts get no generated tests,
metrics that need a runtime flag. For each service it then says how its GPU
series are found, how it is scraped, and which GPU and serving alerts it
gets and which not, and why. It writes nothing. It exits 2 on errors.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			res, err := spec.Load(args...)
			if err != nil {
				return specError(err)
			}
			out := cmd.OutOrStdout()
			for _, w := range res.Warnings {
				fmt.Fprintln(out, "warning:", w)
			}
			gpuTests := gputests.NewCache() // services alike share their GPU tests' schedule
			for _, svc := range res.Spec.Services {
				fmt.Fprintf(out, "%s: runtime %s, %d SLO(s), from %s\n", svc.Name, svc.Runtime, len(svc.SLOs), svc.File)
				vetGPU(out, svc, gpuTests)
			}
			return nil
		},
	}
}
