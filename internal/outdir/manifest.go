package outdir

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/slogen-dev/slogen/internal/genfile"
)

// Manifest is the file, at the top of the output directory, that lists
// every file slogen wrote there. It is what makes the directory slogen's.
const Manifest = ".slogen-manifest"

const manifestHeader = genfile.Header +
	"# The files slogen wrote in this directory. slogen build replaces the\n" +
	"# directory only while it holds nothing but these.\n"

// manifest lists the files slogen wrote, in path order.
func manifest(names []string) []byte {
	var b strings.Builder
	b.WriteString(manifestHeader)
	for _, name := range slices.Sorted(slices.Values(names)) {
		b.WriteString(name)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// ownership tells slogen's files in a directory from the user's.
type ownership struct {
	listed map[string]bool // nil when the directory has no manifest
}

func readOwnership(dir string) (ownership, error) {
	data, err := os.ReadFile(filepath.Join(dir, Manifest))
	if errors.Is(err, fs.ErrNotExist) {
		return ownership{}, nil
	}
	if err != nil {
		return ownership{}, err
	}
	listed := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			listed[line] = true
		}
	}
	return ownership{listed: listed}, sc.Err()
}

// generated reports whether the file at rel (slash-separated) is one
// slogen wrote: the manifest lists it, or, in a directory written before
// slogen kept a manifest, it is a regular file carrying slogen's marker.
func (o ownership) generated(rel, path string, d fs.DirEntry) bool {
	if !d.Type().IsRegular() {
		return false
	}
	if rel == Manifest {
		return true
	}
	if o.listed != nil {
		return o.listed[rel]
	}
	return hasMarker(path)
}

func hasMarker(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	return bytes.Contains(head[:n], []byte(genfile.Marker))
}
