package model

// A Shape is what services that differ only in their identity share: the
// same spec with another name, team, model, GPU and selector values. A
// fleet of a thousand services is often a handful of shapes, and every
// output of a service is a function of its shape with its identity written
// in, so generate can make each shape's outputs once.
//
// Sample and Check are the shape's service built with placeholders for the
// identity, two different sets (see Service.Identity): generate makes both,
// and uses the shape only when Check's outputs are Sample's with one set of
// placeholders written over the other, which shows that every output
// carries the identity verbatim.
type Shape struct {
	Sample, Check Service
}

// Identity is what tells a service from others of its shape: its name,
// its selector's values in the selector's order, then its team, its model
// and its GPU product where it has them.
func (s Service) Identity() []string {
	id := make([]string, 0, 3+len(s.Selector))
	id = append(id, s.Name)
	for _, l := range s.Selector {
		id = append(id, l.Value)
	}
	for _, v := range []string{s.Team, s.Model, s.GPU.Product} {
		if v != "" {
			id = append(id, v)
		}
	}
	return id
}
