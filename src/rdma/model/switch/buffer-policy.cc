/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/buffer-policy.h"

#include "ns3/log.h"
#include "ns3/object-factory.h"

#include <algorithm>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BufferPolicy");
NS_OBJECT_ENSURE_REGISTERED(BufferPolicy);

namespace
{
/// (name, TypeId) of every concrete subclass, sorted by name (found once).
const std::vector<std::pair<std::string, TypeId>>&
Registered()
{
    static const std::vector<std::pair<std::string, TypeId>> all = [] {
        std::vector<std::pair<std::string, TypeId>> found;
        const TypeId base = BufferPolicy::GetTypeId();
        for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
        {
            const TypeId tid = TypeId::GetRegistered(i);
            if (tid != base && tid.IsChildOf(base) && tid.HasConstructor())
            {
                ObjectFactory f;
                f.SetTypeId(tid);
                found.emplace_back(f.Create<BufferPolicy>()->GetName(), tid);
            }
        }
        std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
            return a.first < b.first;
        });
        return found;
    }();
    return all;
}
} // namespace

TypeId
BufferPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BufferPolicy").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

void
BufferPolicy::Attach(const SwitchMmu* mmu)
{
    m_mmu = mmu;
}

void
BufferPolicy::SetPortCount(uint32_t /* ports */)
{
}

void
BufferPolicy::ConfigurePort(uint32_t /* port */, uint64_t /* bitRate */)
{
}

bool
BufferPolicy::TracksQueues() const
{
    return false;
}

void
BufferPolicy::Enqueued(uint32_t /* outPort */, uint8_t /* priority */, uint64_t /* queueBytes */)
{
}

void
BufferPolicy::Dequeued(uint32_t /* outPort */,
                       uint8_t /* priority */,
                       uint32_t /* bytes */,
                       uint64_t /* queueBytes */)
{
}

std::vector<std::string>
BufferPolicy::Names()
{
    std::vector<std::string> names;
    for (const auto& [name, tid] : Registered())
    {
        names.push_back(name);
    }
    return names;
}

bool
BufferPolicy::Find(const std::string& name, TypeId& tid)
{
    for (const auto& [n, t] : Registered())
    {
        if (n == name)
        {
            tid = t;
            return true;
        }
    }
    return false;
}

void
BufferPolicy::DoDispose()
{
    m_mmu = nullptr;
    Object::DoDispose();
}

const SwitchMmu*
BufferPolicy::GetMmu() const
{
    return m_mmu;
}

} // namespace ns3
