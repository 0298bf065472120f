// Package generate runs every output generator over a validated spec and
// hands over the files to write, keyed by their path under the output
// directory, each service's as soon as they are made (Stream). It writes
// nothing itself.
package generate

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"path"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/slogen-dev/slogen/internal/generate/alertmanager"
	"github.com/slogen-dev/slogen/internal/generate/gputests"
	"github.com/slogen-dev/slogen/internal/generate/loki"
	"github.com/slogen-dev/slogen/internal/generate/otelcol"
	"github.com/slogen-dev/slogen/internal/generate/ruletests"
	"github.com/slogen-dev/slogen/internal/generate/runbooks"
	"github.com/slogen-dev/slogen/internal/generate/scrape"
	"github.com/slogen-dev/slogen/internal/generate/target"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/parallel"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// Files maps a slash-separated path under the output directory to content.
type Files map[string][]byte

// Paths of a service's outputs, under the output directory. The SLO rules
// and the GPU and serving alerts are separate rule files, each with its own
// tests, because promtool evaluates every group of a test's rule files at
// every step: apart, neither's tests pay for the other's rules.
const (
	RulesFile     = "rules.yaml"
	RuleTestsFile = "rules_test.yaml"
	// RuleLongTestsFile tests rules.yaml too, at a coarser evaluation
	// interval: its scenarios run for hours.
	RuleLongTestsFile = "rules-long_test.yaml"
	// GlobalRulesFile holds, for a service that spans clusters, the rules
	// of the global ruler; rules.yaml then holds each cluster's. Its tests
	// feed it two clusters' recordings; the tests of rules.yaml read both
	// files, as one Prometheus that is its own global ruler would.
	GlobalRulesFile     = "rules.global.yaml"
	GlobalRuleTestsFile = "rules.global_test.yaml"
	GPURulesFile        = "gpu-rules.yaml"
	GPURuleTestsFile    = "gpu-rules_test.yaml"
	// GPUDiagnosisTestsFile tests gpu-rules.yaml too, at a coarser
	// evaluation interval: its scenario runs past a day.
	GPUDiagnosisTestsFile = "gpu-diagnosis_test.yaml"
	// RunbookFile is what to do when each of the service's alerts fires;
	// alerting.runbook_base_url links point into it.
	RunbookFile = rules.RunbookFile
)

// ServiceDir is the directory holding one service's outputs. Service
// names are DNS labels (checked by spec), so it never leaves the output
// directory.
func ServiceDir(svc model.Service) string { return svc.Name }

// stage generates some of one service's files from its plan.
type stage func(p *plan.Service, out Files) error

// stages run in order for every service. gpuTests holds, for one build,
// what services of one shape share in their GPU tests. A service of a
// fleet gets only what is its own; fleetStages write the rest once.
func stages(gpuTests *gputests.Cache, rb *runbooks.Templates, o Options, l plan.Layout) []stage {
	own := []stage{
		ruleFiles,      // the SLO rule files
		gpuRuleFiles,   // the GPU and serving alerts
		targetFiles(o), // both rule files' groups, wrapped for the target
		scrapeFiles,    // how Prometheus scrapes the runtime
	}
	if l == plan.Fleet {
		return own // the tests of each rule template's first service come after
	}
	return append(own,
		ruleTests,              // the SLO rules' promtool tests
		gpuRuleTests(gpuTests), // the GPU and serving alerts' promtool tests
		dashboardFiles(o),      // the Grafana dashboard and its provisioning file or ConfigMap
		runbookFile(rb),        // the runbook every alert links to
		collectorFile,          // the OpenTelemetry Collector fragment, if the spec asks
		lokiFile,               // the Loki ruler's alerts on fatal log lines, if the spec asks
	)
}

// Fleet is what the fleet stages read: a build of several services.
type Fleet struct {
	// Spec is the spec as resolved for the target.
	Spec model.Spec
	// Options are the build's.
	Options Options
	// Runbooks are the runbook templates the build renders.
	Runbooks *runbooks.Templates
	// Templates are the services of each rule template, as indices into
	// Spec.Services in spec order: services whose rule files differ only
	// in their identity. A template's first service is the one whose
	// tests the output holds; the others' outputs, other than their rule
	// files and scrape job, are its with their identity written in.
	Templates [][]int
}

// fleetStage writes, for a fleet, files the services share: written once
// for the output instead of in every service's directory.
type fleetStage func(f *Fleet, out Files) error

// fleetStages run once, after every service's stages, when the build is
// a fleet's.
var fleetStages = []fleetStage{
	fleetGPURules,     // the alerts about GPUs, once per GPU pool
	fleetSharedAlerts, // the SLO and serving alerts, once per set the services share
	fleetRunbook,      // the runbook every alert links to
	fleetDashboards,   // a dashboard per kind of service, and the provider or ConfigMaps that load them
	overviewFile,      // the overview dashboard: every service and SLO in one table
	fleetCollector,    // one OpenTelemetry Collector fragment for the services that ask
	fleetLoki,         // one Loki rules file for the services that ask
}

// fleetCollector writes, at the output's root, the one Collector
// fragment of every service with a collector block: the services share
// the Collector, so they share its tail-sampling processor.
func fleetCollector(f *Fleet, out Files) error {
	data, err := otelcol.Build(f.Spec.Services)
	if err != nil || data == nil {
		return err
	}
	out[otelcol.File] = data
	return nil
}

// fleetLoki writes, at the output's root, the Loki rules of every
// service with a loki block, as fleetCollector writes their Collector's
// fragment: one file for the one ruler, a group per service.
func fleetLoki(f *Fleet, out Files) error {
	data, err := loki.Build(f.Spec.Services)
	if err != nil || data == nil {
		return err
	}
	out[loki.File] = data
	return nil
}

// targetFiles writes the service's rule groups as the target deploys
// them: nothing more for plain Prometheus, which reads the rule files.
func targetFiles(o Options) stage {
	return func(w *plan.Service, out Files) error {
		g := target.Groups{Local: append(slices.Clip(w.Local), w.GPURules...), Global: w.Global}
		files, err := target.Files(o.target(), w.Svc, g, o.Namespace)
		if err != nil {
			return err
		}
		for name, data := range files {
			out[path.Join(ServiceDir(w.Svc), name)] = data
		}
		return nil
	}
}

func (o Options) target() target.Name {
	if o.Target == "" {
		return target.Prometheus
	}
	return o.Target
}

// sharedStage generates files that several services share, from what the
// services' stages emitted.
type sharedStage func(spec model.Spec, emitted *serviceOutputs, out Files) error

// serviceOutputs is what the services' stages emitted.
type serviceOutputs struct {
	mu      sync.Mutex
	written map[string]bool // every path
	// scrapeConfigs holds each service's scrape.yaml, by path, whose job
	// prometheus.yml gathers.
	scrapeConfigs map[string][]byte
}

func newServiceOutputs() *serviceOutputs {
	return &serviceOutputs{written: map[string]bool{}, scrapeConfigs: map[string][]byte{}}
}

// record emits each file and records it once emitted, keeping a copy of
// each service's scrape.yaml: no other file slogen writes has that name.
func (o *serviceOutputs) record(emit Emit) Emit {
	return func(p string, data []byte) error {
		if err := emit(p, data); err != nil {
			return err
		}
		o.mu.Lock()
		defer o.mu.Unlock()
		o.written[p] = true
		if path.Base(p) == scrape.ConfigFile {
			o.scrapeConfigs[p] = bytes.Clone(data)
		}
		return nil
	}
}

// sharedStages run once, after every service's stages.
var sharedStages = []sharedStage{
	sharedScrapeFiles, // dcgm-exporter's jobs, and prometheus.yml
	alertmanagerFile,  // routes, grouping and inhibitions for the alerts
}

// alertmanagerFile writes the Alertmanager config fragment for every
// service's alerts.
func alertmanagerFile(spec model.Spec, _ *serviceOutputs, out Files) error {
	data, err := alertmanager.Build(spec.Services)
	if err != nil || data == nil {
		return err
	}
	out[alertmanager.File] = data
	return nil
}

// Emit receives one generated file, by its path under the output
// directory. Stream calls it from several goroutines at once. data is
// only valid during the call: Stream reuses it, so that a fleet's files
// are not each a new allocation.
type Emit func(path string, data []byte) error

// Options change what a build writes; the zero value is slogen's own.
type Options struct {
	// Runbooks are the runbook templates; nil for the embedded ones.
	Runbooks *runbooks.Templates
	// Target is where the rules are deployed; "" is plain Prometheus.
	Target target.Name
	// Namespace is where PrometheusRules go, when not the selector's.
	Namespace string
	// DashboardLabel is the label, name=value, on the operator target's
	// dashboard ConfigMap; "" for target.DefaultDashboardLabel.
	DashboardLabel string
	// Operator replaces every service's operator settings under the
	// operator target.
	Operator target.Overrides
}

// Stream generates every file for every service and hands each service's
// files to emit as soon as they are made, so that a fleet's output never
// has to be held in memory at once. It first resolves the spec for the
// target (target.Resolve) and emits nothing when target.Check refuses
// it. After a failure it may already have emitted other services' files;
// the caller discards them.
func (o Options) Stream(spec model.Spec, emit Emit) error {
	rb := o.Runbooks
	if rb == nil {
		var err error
		if rb, err = runbooks.Embedded(); err != nil {
			return err
		}
	}
	spec = target.Resolve(o.target(), spec, o.Operator)
	if err := target.Check(o.target(), spec); err != nil {
		return err
	}
	var errs []error
	layout := plan.LayoutOf(len(spec.Services))
	emitted := newServiceOutputs()
	shapes := newShapes(serviceFiles(stages(gputests.NewCache(), rb, o, layout), layout))
	emitService := shapes.emit
	var found *templateFinder
	if layout == plan.Fleet {
		found = newTemplateFinder(spec.Services)
		emitService = found.observe(emitService)
	}
	for i, err := range perService(spec.Services, emitService, emitted.record(emit)) {
		if err != nil {
			errs = append(errs, fmt.Errorf("service %s: %w", spec.Services[i].Name, err))
		}
	}
	shared := Files{}
	// The shared stages read what the services emitted, which the
	// templates' tests would add to.
	for _, st := range sharedStages {
		if err := st(spec, emitted, shared); err != nil {
			errs = append(errs, err)
		}
	}
	if layout == plan.Fleet && len(errs) == 0 {
		// The templates' tests and the files the services share read
		// only the templates: the tests run beside the fleet stages,
		// which run on one goroutine, instead of before them.
		templates := found.templates()
		tested := make(chan error, 1)
		go func() { tested <- templateTests(spec.Services, found, emitted.record(emit)) }()
		f := &Fleet{Spec: spec, Options: o, Runbooks: rb, Templates: templates}
		for _, st := range fleetStages {
			errs = append(errs, st(f, shared))
		}
		errs = append(errs, <-tested)
	}
	for _, p := range slices.Sorted(maps.Keys(shared)) {
		errs = append(errs, emit(p, shared[p]))
	}
	return errors.Join(errs...)
}

// perService emits every service's files, services in parallel (they
// share only caches safe for concurrent use), and returns each service's
// error, or nil, in service order.
func perService(svcs []model.Service, emitService func(model.Service, Emit) error, emit Emit) []error {
	res := make([]error, len(svcs))
	parallel.Each(len(svcs), runtime.GOMAXPROCS(0), func(i int) { res[i] = emitService(svcs[i], emit) })
	return res
}

// serviceFiles runs the stages over one service.
func serviceFiles(stages []stage, l plan.Layout) func(model.Service) (Files, error) {
	return func(svc model.Service) (Files, error) {
		out := Files{}
		var errs []error
		w := plan.NewIn(svc, l)
		for _, st := range stages {
			errs = append(errs, st(w, out))
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		return out, nil
	}
}

// ruleFiles writes the SLO rule file; for a service that spans clusters,
// the global ruler's file too.
func ruleFiles(w *plan.Service, out Files) error {
	return errors.Join(
		ruleFile(w.Svc, out, GlobalRulesFile, w.Global),
		ruleFile(w.Svc, out, RulesFile, w.Local))
}

// ruleTests writes the SLO rules' tests: those of the global ruler's file
// apart, and the long scenarios at a coarser interval.
func ruleTests(w *plan.Service, out Files) error {
	if len(w.Local) == 0 {
		return nil
	}
	suite := ruletests.Build(w.Svc)
	read := []string{RulesFile}
	if w.Shared != nil { // the alerts it shares, at the fleet's root
		read = append(read, path.Join("..", SLOAlertsFile))
	}
	if len(w.Global) > 0 {
		read = append(read, GlobalRulesFile)
		if err := testFiles(w.Svc, out, testFile{GlobalRuleTestsFile, []string{GlobalRulesFile}, ruletests.EvaluationInterval, suite.Global, nil}); err != nil {
			return err
		}
	}
	return testFiles(w.Svc, out,
		testFile{RuleTestsFile, read, ruletests.EvaluationInterval, suite.Tests, nil},
		testFile{RuleLongTestsFile, read, ruletests.LongEvaluationInterval, suite.Long, nil})
}

// gpuRuleFiles writes the GPU and serving alerts' rule file.
func gpuRuleFiles(w *plan.Service, out Files) error {
	return ruleFile(w.Svc, out, GPURulesFile, w.GPURules)
}

// gpuRuleTests writes the GPU and serving alerts' tests: the day-long
// diagnosis test in a file of its own, evaluated every five minutes
// instead of every one.
func gpuRuleTests(tests *gputests.Cache) stage {
	return func(w *plan.Service, out Files) error {
		if len(w.GPURules) == 0 {
			return nil
		}
		suite := tests.Tests(w.GPU) // vet reports what could not be tested
		read, order := gpuTestRules(w)
		return testFiles(w.Svc, out,
			testFile{GPURuleTestsFile, read, gputests.EvaluationInterval, suite.Tests, order},
			testFile{GPUDiagnosisTestsFile, read, gputests.DiagnosisEvaluationInterval, suite.Diagnosis, order})
	}
}

// gpuTestRules are the rule files a service's GPU tests read, and the
// order their groups evaluate in: the GPU rules alone; or, where they read
// the objective the SLO rules record or the service shares serving alerts
// that join its InfoMetric, the SLO rules first, then the GPU rules, then
// the shared alerts, which read both. A diagnosis test steps by the
// lookback delta itself, and Prometheus 3 excludes a sample exactly that
// old, so each group must read what the groups before it recorded in the
// same evaluation; promtool would take them in random order.
func gpuTestRules(w *plan.Service) (read, order []string) {
	if w.Serving == nil && !w.GPU.ReadsObjective() {
		return []string{GPURulesFile}, nil
	}
	read = []string{RulesFile, GPURulesFile}
	for _, g := range w.Local {
		order = append(order, g.Name)
	}
	order = append(order, gpualerts.GroupName(w.Svc))
	if w.Serving != nil { // at the fleet's root
		read = append(read, path.Join("..", ServingAlertsFile))
		for _, g := range w.Serving.Groups {
			order = append(order, g.Name)
		}
	}
	return read, order
}

// testFile is a promtool test file and the rule files it reads.
type testFile struct {
	name  string
	read  []string
	eval  time.Duration
	tests []testfile.Test
	order []string // group_eval_order, if any
}

// ruleFile writes one rule file, when it has groups. The rules are not
// parsed again: what a spec brings in (ratio queries, a custom app's
// metric names) is checked against Prometheus 2.42 when the spec loads,
// and the tests of internal/plan/rules, ruletests and gputests prove every
// runtime's rule files under promtool 2.42.
func ruleFile(svc model.Service, out Files, name string, groups []rules.Group) error {
	if len(groups) == 0 {
		return nil
	}
	rf, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		return err
	}
	out[path.Join(ServiceDir(svc), name)] = rf
	return nil
}

// testFiles writes the test files that have tests.
func testFiles(svc model.Service, out Files, tests ...testFile) error {
	for _, t := range tests {
		if len(t.tests) == 0 {
			continue
		}
		data, err := testfile.Marshal(testfile.File{RuleFiles: t.read, EvaluationInterval: genfile.Duration(t.eval), GroupEvalOrder: t.order, Tests: t.tests})
		if err != nil {
			return err
		}
		out[path.Join(ServiceDir(svc), t.name)] = data
	}
	return nil
}

// runbookFile writes the service's runbook, from the templates.
func runbookFile(rb *runbooks.Templates) stage {
	return func(w *plan.Service, out Files) error {
		data, err := rb.Render(w)
		if err != nil {
			return fmt.Errorf("%s: %w", RunbookFile, err)
		}
		out[path.Join(ServiceDir(w.Svc), RunbookFile)] = data
		return nil
	}
}

// collectorFile writes the service's OpenTelemetry Collector fragment
// when its spec has a collector block.
func collectorFile(w *plan.Service, out Files) error {
	data, err := otelcol.Build([]model.Service{w.Svc})
	if err != nil || data == nil {
		return err
	}
	out[path.Join(ServiceDir(w.Svc), otelcol.File)] = data
	return nil
}

// lokiFile writes the service's Loki ruler rules when its spec has a
// loki block.
func lokiFile(w *plan.Service, out Files) error {
	data, err := loki.Build([]model.Service{w.Svc})
	if err != nil || data == nil {
		return err
	}
	out[path.Join(ServiceDir(w.Svc), loki.File)] = data
	return nil
}

// scrapeFiles writes the runtime's scrape config (scrape.yaml) or its
// PodMonitor/ServiceMonitor (monitors.yaml), by the spec's scrape mode.
func scrapeFiles(w *plan.Service, out Files) error {
	svc := w.Svc
	name, data, err := scrape.Runtime(svc)
	if err != nil {
		return err
	}
	out[path.Join(ServiceDir(svc), name)] = data
	return nil
}

// sharedScrapeFiles writes the files at the top of the output, from
// dcgm-exporter's jobs collected once: its scrape jobs or monitors
// (dcgm-exporter.scrape.yaml, dcgm-exporter.monitors.yaml), since one
// exporter job serves every service and a job name may appear once in a
// config; and prometheus.yml, which loads every rule file and scrape job,
// for Prometheus 2.42 (no scrape_config_files) and for trying slogen out
// on one machine.
func sharedScrapeFiles(spec model.Spec, emitted *serviceOutputs, out Files) error {
	dcgm, err := scrape.DCGM(spec.Services)
	if err != nil {
		return err
	}
	files, err := dcgm.Files()
	if err != nil {
		return err
	}
	maps.Copy(out, files)
	if len(spec.Services) > 0 {
		out[scrape.CountersFile] = scrape.Counters()
	}
	var ruleFiles []string
	var runtimeFiles [][]byte
	for _, svc := range spec.Services {
		for _, name := range []string{RulesFile, GPURulesFile} {
			if p := path.Join(ServiceDir(svc), name); emitted.written[p] {
				ruleFiles = append(ruleFiles, p)
			}
		}
		if f, ok := emitted.scrapeConfigs[path.Join(ServiceDir(svc), scrape.ConfigFile)]; ok {
			runtimeFiles = append(runtimeFiles, f)
		}
	}
	if l := plan.LayoutOf(len(spec.Services)); l == plan.Fleet {
		ruleFiles = append(ruleFiles, GPURulesFile) // the pools' alerts about GPUs (fleet_gpu.go)
		if slices.ContainsFunc(spec.Services, func(s model.Service) bool { return plan.SharesAlerts(s, l) }) {
			ruleFiles = append(ruleFiles, SLOAlertsFile) // the alerts the services share (fleet_shared_alerts.go)
		}
		if slices.ContainsFunc(spec.Services, func(s model.Service) bool { return plan.WritesServingAlerts(s, l) }) {
			ruleFiles = append(ruleFiles, ServingAlertsFile) // the same (fleet_shared_alerts.go)
		}
	}
	data, err := scrape.Prometheus(runtimeFiles, dcgm, ruleFiles)
	if err != nil || data == nil {
		return err
	}
	out[scrape.PrometheusFile] = data
	return nil
}
