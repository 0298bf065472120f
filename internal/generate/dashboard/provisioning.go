package dashboard

import (
	"fmt"
	"path"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
)

// ProvisionedRoot is where the provisioning file expects slogen's output
// directory inside Grafana: each service's dashboard.json at
// ProvisionedRoot/<service>/. Mount or copy the output directory there.
const ProvisionedRoot = "/var/lib/grafana/dashboards/slogen"

// Folder is the Grafana folder the dashboards are provisioned into.
const Folder = "slogen"

// provisioning is Grafana's dashboard provisioning file (apiVersion 1).
type provisioning struct {
	APIVersion int        `yaml:"apiVersion"`
	Providers  []provider `yaml:"providers"`
}

type provider struct {
	Name                  string          `yaml:"name"`
	OrgID                 int             `yaml:"orgId"`
	Folder                string          `yaml:"folder"`
	Type                  string          `yaml:"type"`
	DisableDeletion       bool            `yaml:"disableDeletion"`
	AllowUIUpdates        bool            `yaml:"allowUiUpdates"`
	UpdateIntervalSeconds int             `yaml:"updateIntervalSeconds"`
	Options               providerOptions `yaml:"options"`
}

type providerOptions struct {
	Path                      string `yaml:"path"`
	FoldersFromFilesStructure bool   `yaml:"foldersFromFilesStructure"`
}

// Provisioning writes a file provider for one service's dashboard. UI
// edits are refused, since the next build would overwrite them, and the
// dashboard goes when its file goes.
func Provisioning(svc model.Service) ([]byte, error) {
	p := provisioning{APIVersion: 1, Providers: []provider{{
		Name:                  "slogen-" + svc.Name,
		OrgID:                 1,
		Folder:                Folder,
		Type:                  "file",
		UpdateIntervalSeconds: 60,
		Options:               providerOptions{Path: path.Join(ProvisionedRoot, svc.Name)},
	}}}
	out, err := genfile.MarshalYAML(p)
	if err != nil {
		return nil, fmt.Errorf("encoding the provisioning file of %s: %w", svc.Name, err)
	}
	return out, nil
}

// FleetProvisioning writes the one file provider of a fleet's output. It
// loads every dashboard under ProvisionedRoot, the kinds' in dashboards/
// and the services' own in their directories, into Folder.
func FleetProvisioning() ([]byte, error) {
	p := provisioning{APIVersion: 1, Providers: []provider{{
		Name:                  "slogen",
		OrgID:                 1,
		Folder:                Folder,
		Type:                  "file",
		UpdateIntervalSeconds: 60,
		Options:               providerOptions{Path: ProvisionedRoot},
	}}}
	out, err := genfile.MarshalYAML(p)
	if err != nil {
		return nil, fmt.Errorf("encoding the fleet's provisioning file: %w", err)
	}
	return out, nil
}
