package ruletest

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	files, _ := filepath.Glob(os.Getenv("DBG_GLOB"))
	for _, f := range files {
		var out strings.Builder
		n, err := Run(context.Background(), &out, f)
		v := "pass"
		if n > 0 || err != nil {
			v = "fail"
		}
		fmt.Printf("VERDICT %s %s\n", filepath.Base(f), v)
		if os.Getenv("DBG_OUT") != "" {
			io.WriteString(os.Stdout, out.String())
		}
	}
}
