/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_STAGE_LIST_H
#define RDMA_STAGE_LIST_H

#include <algorithm>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The stages of one kind (\p Base: TopologyStage, TrafficStage), each registered once by
 * a StageRegistration in its own file, in the manner of PluginRegistry's controllers.
 * The order sorts them: a traffic source's order fixes the flow ids and random streams
 * it takes, so the orders of shipped stages must not change (outputs would).
 *
 * The list of a kind is instantiated once, in the library, by the file of its base
 * (`template class StageList<TopologyStage>;` in topology-stage.cc), and declared
 * `extern template` beside the base: a stage registered from another binary (a test's)
 * then joins the same list.
 */
template <class Base>
class StageList
{
  public:
    /// Makes one stage.
    using Factory = std::unique_ptr<Base> (*)();

    /// Register \p make at \p order (orders are unique within a kind).
    static void Add(int order, Factory make);

    /// A new instance of every registered stage, by order.
    static std::vector<std::unique_ptr<Base>> Create();

  private:
    struct Entry
    {
        int order;
        Factory make;
    };

    /// Built on first use, so that registrations from any file's static initialisation
    /// find it constructed.
    static std::vector<Entry>& Entries();
};

/**
 * \ingroup rdma
 * Registers the stage \p T with the list of \p Base: one static instance in T's file,
 * `static const StageRegistration<TrafficStage, ProbeStage> g_probeStage(80);`.
 */
template <class Base, class T>
struct StageRegistration
{
    /// \param order the stage's place in its list (see StageList)
    explicit StageRegistration(int order)
    {
        StageList<Base>::Add(order,
                             []() -> std::unique_ptr<Base> { return std::make_unique<T>(); });
    }
};

template <class Base>
void
StageList<Base>::Add(int order, Factory make)
{
    Entries().push_back({order, make});
}

template <class Base>
std::vector<std::unique_ptr<Base>>
StageList<Base>::Create()
{
    std::vector<Entry> entries = Entries();
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.order < b.order;
    });
    std::vector<std::unique_ptr<Base>> stages;
    for (const Entry& e : entries)
    {
        stages.push_back(e.make());
    }
    return stages;
}

template <class Base>
std::vector<typename StageList<Base>::Entry>&
StageList<Base>::Entries()
{
    static std::vector<Entry> entries;
    return entries;
}

} // namespace ns3

#endif /* RDMA_STAGE_LIST_H */
