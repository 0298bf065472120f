package scrape

// dcgm-exporter labels each GPU with its host as Hostname; its main
// branch (after 4.5.3-4.8.2, commit d5e5f51) renames the label hostname.
// slogen's host mapping and GPU identity read Hostname, so its
// dcgm-exporter jobs copy hostname into Hostname where an exporter sets
// it: host mapping works with the exporters of either name.

const (
	hostLabel    = "Hostname" // what the rules read
	newHostLabel = "hostname" // dcgm-exporter's name for it from its next release on
)

// hostnameRelabeling copies hostname into Hostname after the scrape.
func hostnameRelabeling() []RelabelConfig {
	return []RelabelConfig{{SourceLabels: []string{newHostLabel}, Regex: "(.+)", TargetLabel: hostLabel}}
}

// hostnameMetricRelabelings is the same for prometheus-operator's
// monitors.
func hostnameMetricRelabelings() []Relabeling {
	var out []Relabeling
	for _, r := range hostnameRelabeling() {
		out = append(out, Relabeling{SourceLabels: r.SourceLabels, Regex: r.Regex, TargetLabel: r.TargetLabel})
	}
	return out
}
